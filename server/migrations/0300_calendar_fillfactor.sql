-- Calendar rows are rewritten all day (every push that changes a price, every booking that moves a
-- count). Room on each page lets PostgreSQL update them in place (HOT: no new index entry, old versions
-- pruned as pages are read), instead of spreading each update over a fresh page. Applies to new pages.
alter table availability set (fillfactor = 70);
alter table rates set (fillfactor = 70);
alter table restrictions set (fillfactor = 70);
