-- Reused statements of bookings

-- shape: insert-held:user_id,court_id,venue_id,type,status,date,start_time,end_time,base_amount,discount_amount,total_amount,customer_name,customer_phone,notes,created_by,payment_method
insert into "bookings" ("user_id", "court_id", "venue_id", "type", "status", "date", "start_time", "end_time", "base_amount", "discount_amount", "total_amount", "customer_name", "customer_phone", "notes", "created_by", "payment_method", "booking_number", "hold_expires_at")
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, (SELECT $17 || lpad(n::text, greatest(6, length(n::text)), '0')
    FROM (SELECT nextval('booking_number_bk') AS n, pg_advisory_xact_lock(1001, $18::int)
      FROM courtside_hold_unpaid($19, $20::int, $21, $22::timestamp) AS held) AS next_number), CASE WHEN EXISTS (SELECT 1
    FROM users AS hold_user
    WHERE hold_user.id = $23 AND hold_user.phone_verified_at IS NOT NULL)
    THEN $24::timestamptz ELSE $25::timestamptz END)
returning *, (select to_json(obj)
  from (select "v"."id", "v"."name", "v"."slug"
    from "venues" as "v"
    where "v"."id" = "bookings"."venue_id") as obj) as "venue", (select "u"."wallet_balance"
  from "users" as "u"
  where "u"."id" = "bookings"."user_id") as "customer_wallet_balance";

-- shape: insert:user_id,court_id,venue_id,type,status,date,start_time,end_time,base_amount,discount_amount,total_amount,customer_name,customer_phone,notes,created_by,payment_method,hold_expires_at
insert into "bookings" ("user_id", "court_id", "venue_id", "type", "status", "date", "start_time", "end_time", "base_amount", "discount_amount", "total_amount", "customer_name", "customer_phone", "notes", "created_by", "payment_method", "hold_expires_at", "booking_number")
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, (SELECT $18 || lpad(n::text, greatest(6, length(n::text)), '0')
    FROM (SELECT nextval('booking_number_bk') AS n, pg_advisory_xact_lock(1001, $19::int)) AS next_number))
returning *, (select to_json(obj)
  from (select "v"."id", "v"."name", "v"."slug"
    from "venues" as "v"
    where "v"."id" = "bookings"."venue_id") as obj) as "venue", (select "u"."wallet_balance"
  from "users" as "u"
  where "u"."id" = "bookings"."user_id") as "customer_wallet_balance";
