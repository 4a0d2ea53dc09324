-- venue-list

select "v"."id", null::float8 as "distance"
from "venues" as "v"
where "v"."deleted_at" is null and "v"."verification_status" = $1 and "v"."is_active" = $2
order by (v.verification_status = 'verified') desc, v.reviews_avg_rating desc nulls last, v.reviews_count desc, v.id desc
limit $3
offset $4;

select count(*) as "n"
from "venues" as "v"
where "v"."deleted_at" is null and "v"."verification_status" = $1 and "v"."is_active" = $2;
