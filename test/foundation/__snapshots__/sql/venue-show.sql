-- venue-show

select "id", "owner_id", "name", "slug", "is_active", "verification_status", "opening_time", "closing_time"
from "venues"
where "slug" = $1 and "deleted_at" is null;
