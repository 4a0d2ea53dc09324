-- Reused statements of availability

-- shape: court-day:false
select "r"."id", "r"."venue_id", "r"."slot_minutes", "r"."price_per_hour", "r"."is_active", "v"."owner_id", "v"."opening_time", "v"."closing_time", "v"."verification_status", "v"."is_active" as "venue_active", (select to_json(obj)
  from (select "s"."open_time", "s"."close_time", "s"."is_closed"
    from "court_schedules" as "s"
    where "s"."court_id" = "r"."id" and "s"."day_of_week" = $1) as obj) as "schedule", (select coalesce(json_agg(agg), '[]')
  from (select "p"."id", "p"."type", "p"."day_of_week", "p"."start_time", "p"."end_time", "p"."price_per_hour", "p"."is_active"
    from "pricing_rules" as "p"
    where "p"."court_id" = "r"."id" and "p"."is_active" = $2 and ("p"."day_of_week" is null or "p"."day_of_week" = $3)) as agg) as "rules", exists (select "h"."id"
  from "venue_holidays" as "h"
  where "h"."venue_id" = "r"."venue_id" and "h"."date" = $4) as "is_holiday", (select coalesce(json_agg(agg), '[]')
  from (select "k"."start_time", "k"."end_time"
    from "court_blocks" as "k"
    where "k"."court_id" = "r"."id" and "k"."date" = $5) as agg) as "blocks", '[]'::json as "bookings"
from (select "id", "venue_id", "slot_minutes", "price_per_hour", "is_active", "deleted_at"
  from "courts") as "r"
inner join "venues" as "v" on "v"."id" = "r"."venue_id"
where "r"."id" = $6 and "r"."deleted_at" is null and "v"."deleted_at" is null;

-- shape: court-day:true
select "r"."id", "r"."venue_id", "r"."slot_minutes", "r"."price_per_hour", "r"."is_active", "v"."owner_id", "v"."opening_time", "v"."closing_time", "v"."verification_status", "v"."is_active" as "venue_active", (select to_json(obj)
  from (select "s"."open_time", "s"."close_time", "s"."is_closed"
    from "court_schedules" as "s"
    where "s"."court_id" = "r"."id" and "s"."day_of_week" = $1) as obj) as "schedule", (select coalesce(json_agg(agg), '[]')
  from (select "p"."id", "p"."type", "p"."day_of_week", "p"."start_time", "p"."end_time", "p"."price_per_hour", "p"."is_active"
    from "pricing_rules" as "p"
    where "p"."court_id" = "r"."id" and "p"."is_active" = $2 and ("p"."day_of_week" is null or "p"."day_of_week" = $3)) as agg) as "rules", exists (select "h"."id"
  from "venue_holidays" as "h"
  where "h"."venue_id" = "r"."venue_id" and "h"."date" = $4) as "is_holiday", (select coalesce(json_agg(agg), '[]')
  from (select "k"."start_time", "k"."end_time"
    from "court_blocks" as "k"
    where "k"."court_id" = "r"."id" and "k"."date" = $5) as agg) as "blocks", (select coalesce(json_agg(agg), '[]')
  from (select "b"."start_time", "b"."end_time", "b"."hold_expires_at"
    from (select "court_id" as "resource_id", "date", "status", "start_time", "end_time", "hold_expires_at"
      from "bookings") as "b"
    where "b"."resource_id" = "r"."id" and "b"."date" = $6 and ("b"."status" in ($7, $8) or ("b"."status" = $9 and ("b"."hold_expires_at" is null or "b"."hold_expires_at" > $10)))) as agg) as "bookings"
from (select "id", "venue_id", "slot_minutes", "price_per_hour", "is_active", "deleted_at"
  from "courts") as "r"
inner join "venues" as "v" on "v"."id" = "r"."venue_id"
where "r"."id" = $11 and "r"."deleted_at" is null and "v"."deleted_at" is null;

-- shape: indoor-day:true
select "r"."id", "r"."venue_id", "r"."slot_minutes", "r"."price_per_hour", "r"."is_active", "v"."owner_id", "v"."opening_time", "v"."closing_time", "v"."verification_status", "v"."is_active" as "venue_active", null as "schedule", '[]'::json as "rules", false as "is_holiday", '[]'::json as "blocks", (select coalesce(json_agg(agg), '[]')
  from (select "b"."start_time", "b"."end_time", "b"."hold_expires_at"
    from (select "indoor_game_id" as "resource_id", "date", "status", "start_time", "end_time", "hold_expires_at"
      from "indoor_game_bookings") as "b"
    where "b"."resource_id" = "r"."id" and "b"."date" = $1 and ("b"."status" in ($2, $3) or ("b"."status" = $4 and ("b"."hold_expires_at" is null or "b"."hold_expires_at" > $5)))) as agg) as "bookings"
from (select "id", "venue_id", "slot_minutes", "price_per_hour", "is_active", "deleted_at"
  from "indoor_games") as "r"
inner join "venues" as "v" on "v"."id" = "r"."venue_id"
where "r"."id" = $6 and "r"."deleted_at" is null and "v"."deleted_at" is null;
