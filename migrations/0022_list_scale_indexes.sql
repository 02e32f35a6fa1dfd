-- Lists that do not grow with the data, the last ones (issue 10).

-- 1. Settings → Subscriptions pages by cursor in its visible order (newest period first, then
-- plan A–Z, then id): this index holds that order, so a page is one range of it, not a sort.
CREATE INDEX subscriptions_org_listed ON subscriptions(org_id, starts_at DESC, plan COLLATE NOCASE, id);
