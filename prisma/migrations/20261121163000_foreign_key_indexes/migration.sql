-- Every foreign key has an index: these rows are read by their parent (a box's items, a plan's
-- categories, a category's entries, a group's bundles and Mix & Match plans), and deleting the
-- parent cascades to them.
CREATE INDEX "bundle_box_items_box_id_idx" ON "bundle_box_items"("box_id");
CREATE INDEX "bundles_group_id_idx" ON "bundles"("group_id");
CREATE INDEX "mix_match_categories_plan_id_idx" ON "mix_match_categories"("plan_id");
CREATE INDEX "mix_match_entries_category_id_idx" ON "mix_match_entries"("category_id");
CREATE INDEX "mix_match_plans_group_id_idx" ON "mix_match_plans"("group_id");
