-- venue-resources

select "id", "name", "name_ne", "slug", "description", "phone", "email", "address", "address_ne", "city", "state", "latitude", "longitude", "opening_time", "closing_time", "is_active", "free_cancellation_hours", "booking_window_days", "min_notice_minutes", "max_hours_per_day", "no_show_limit", "allows_pay_at_venue", "verification_status", "verification_requested_at", "verification_reviewed_at", "verification_note", "reviews_avg_rating", "reviews_count", "min_price", "created_at"
from "venues"
where "id" in ($1);

select "id", "model_id", "path", "collection", "sort_order"
from "media"
where "model_type" = $1 and "model_id" in ($2)
order by "sort_order", "id";

select "va"."venue_id", "a"."id", "a"."name", "a"."name_ne", "a"."icon"
from "venue_amenities" as "va"
inner join "amenities" as "a" on "a"."id" = "va"."amenity_id"
where "va"."venue_id" in ($1)
order by "a"."id";

select "id", "venue_id", "name", "type", "description", "capacity", "is_active"
from "courts"
where "venue_id" in ($1) and "deleted_at" is null and "is_active" = $2
order by "id";
