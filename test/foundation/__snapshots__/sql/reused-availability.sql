-- Reused statements of availability

-- shape: court-day:false
select "c"."id", "c"."venue_id", "c"."slot_minutes", "c"."price_per_hour", "c"."is_active", "v"."owner_id", "v"."opening_time", "v"."closing_time", "v"."verification_status", "v"."is_active" as "venue_active", (select to_json(obj)
  from (select "s"."open_time", "s"."close_time", "s"."is_closed"
    from "court_schedules" as "s"
    where "s"."court_id" = "c"."id" and "s"."day_of_week" = $1) as obj) as "schedule", (select coalesce(json_agg(agg), '[]')
  from (select "r"."id", "r"."type", "r"."day_of_week", "r"."start_time", "r"."end_time", "r"."price_per_hour", "r"."is_active"
    from "pricing_rules" as "r"
    where "r"."court_id" = "c"."id" and "r"."is_active" = $2 and ("r"."day_of_week" is null or "r"."day_of_week" = $3)) as agg) as "rules", exists (select "h"."id"
  from "venue_holidays" as "h"
  where "h"."venue_id" = "c"."venue_id" and "h"."date" = $4) as "is_holiday", (select coalesce(json_agg(agg), '[]')
  from (select "k"."start_time", "k"."end_time"
    from "court_blocks" as "k"
    where "k"."court_id" = "c"."id" and "k"."date" = $5) as agg) as "blocks", '[]'::json as "bookings"
from "courts" as "c"
inner join "venues" as "v" on "v"."id" = "c"."venue_id"
where "c"."id" = $6 and "c"."deleted_at" is null and "v"."deleted_at" is null;

-- shape: court-day:true
select "c"."id", "c"."venue_id", "c"."slot_minutes", "c"."price_per_hour", "c"."is_active", "v"."owner_id", "v"."opening_time", "v"."closing_time", "v"."verification_status", "v"."is_active" as "venue_active", (select to_json(obj)
  from (select "s"."open_time", "s"."close_time", "s"."is_closed"
    from "court_schedules" as "s"
    where "s"."court_id" = "c"."id" and "s"."day_of_week" = $1) as obj) as "schedule", (select coalesce(json_agg(agg), '[]')
  from (select "r"."id", "r"."type", "r"."day_of_week", "r"."start_time", "r"."end_time", "r"."price_per_hour", "r"."is_active"
    from "pricing_rules" as "r"
    where "r"."court_id" = "c"."id" and "r"."is_active" = $2 and ("r"."day_of_week" is null or "r"."day_of_week" = $3)) as agg) as "rules", exists (select "h"."id"
  from "venue_holidays" as "h"
  where "h"."venue_id" = "c"."venue_id" and "h"."date" = $4) as "is_holiday", (select coalesce(json_agg(agg), '[]')
  from (select "k"."start_time", "k"."end_time"
    from "court_blocks" as "k"
    where "k"."court_id" = "c"."id" and "k"."date" = $5) as agg) as "blocks", (select coalesce(json_agg(agg), '[]')
  from (select "bookings"."start_time", "bookings"."end_time", "bookings"."hold_expires_at"
    from "bookings"
    where "bookings"."court_id" = "c"."id" and "bookings"."date" = $6 and ("status" in ($7, $8) or ("status" = $9 and ("hold_expires_at" is null or "hold_expires_at" > $10)))) as agg) as "bookings"
from "courts" as "c"
inner join "venues" as "v" on "v"."id" = "c"."venue_id"
where "c"."id" = $11 and "c"."deleted_at" is null and "v"."deleted_at" is null;

-- shape: indoor-day:true
select "g"."id", "g"."venue_id", "g"."slot_minutes", "g"."price_per_hour", "g"."is_active", "v"."owner_id", "v"."opening_time", "v"."closing_time", "v"."verification_status", "v"."is_active" as "venue_active", (select coalesce(json_agg(agg), '[]')
  from (select "indoor_game_bookings"."start_time", "indoor_game_bookings"."end_time", "indoor_game_bookings"."hold_expires_at"
    from "indoor_game_bookings"
    where "indoor_game_bookings"."indoor_game_id" = "g"."id" and "indoor_game_bookings"."date" = $1 and ("status" in ($2, $3) or ("status" = $4 and ("hold_expires_at" is null or "hold_expires_at" > $5)))) as agg) as "bookings"
from "indoor_games" as "g"
inner join "venues" as "v" on "v"."id" = "g"."venue_id"
where "g"."id" = $6 and "g"."deleted_at" is null and "v"."deleted_at" is null;
