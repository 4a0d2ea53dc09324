-- venue-nearby

select "v"."id", ($1 * asin(least(1, sqrt(
    power(sin(radians((v.latitude::float8 - $2::float8) / 2)), 2)
    + cos(radians($3::float8)) * cos(radians(v.latitude::float8))
    * power(sin(radians((v.longitude::float8 - $4::float8) / 2)), 2))))) as "distance"
from "venues" as "v"
where "v"."deleted_at" is null and "v"."verification_status" = $5 and "v"."is_active" = $6 and "v"."latitude" >= $7 and "v"."latitude" <= $8 and "v"."longitude" >= $9 and "v"."longitude" <= $10 and ($11 * asin(least(1, sqrt(
    power(sin(radians((v.latitude::float8 - $12::float8) / 2)), 2)
    + cos(radians($13::float8)) * cos(radians(v.latitude::float8))
    * power(sin(radians((v.longitude::float8 - $14::float8) / 2)), 2))))) <= $15::float8
order by ($16 * asin(least(1, sqrt(
    power(sin(radians((v.latitude::float8 - $17::float8) / 2)), 2)
    + cos(radians($18::float8)) * cos(radians(v.latitude::float8))
    * power(sin(radians((v.longitude::float8 - $19::float8) / 2)), 2))))) asc, v.id desc
limit $20
offset $21;

select count(*) as "n"
from "venues" as "v"
where "v"."deleted_at" is null and "v"."verification_status" = $1 and "v"."is_active" = $2 and "v"."latitude" >= $3 and "v"."latitude" <= $4 and "v"."longitude" >= $5 and "v"."longitude" <= $6 and ($7 * asin(least(1, sqrt(
    power(sin(radians((v.latitude::float8 - $8::float8) / 2)), 2)
    + cos(radians($9::float8)) * cos(radians(v.latitude::float8))
    * power(sin(radians((v.longitude::float8 - $10::float8) / 2)), 2))))) <= $11::float8;
