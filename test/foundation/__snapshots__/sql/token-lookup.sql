-- token-lookup

select "t"."id" as "token_id", "t"."last_used_at", "u"."id", "u"."name", "u"."email", "u"."phone", "u"."is_active", "u"."locale", array(select r.name
  from user_roles ur join roles r on r.id = ur.role_id
  where ur.user_id = u.id
  order by r.id) as "roles"
from "api_tokens" as "t"
inner join "users" as "u" on "u"."id" = "t"."user_id"
where "t"."id" = $1 and "t"."token_hash" = $2;
