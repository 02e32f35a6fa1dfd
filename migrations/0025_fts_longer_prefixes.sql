-- Word-prefix search that stays cheap for any typed word (issue 10: the switcher's search for
-- "fleet" took 1.75x as long at 100,000 accounts as at 100). FTS5 answers a prefix query from a
-- prefix index when one has the query's length, reading only the first matches a LIMIT needs;
-- any other prefix query first gathers every match into memory. With indexes for prefixes of 2
-- and 3 characters only, "fleet"* over 100,000 names gathered 99,000 matches (4.5 ms in SQLite
-- alone) to show 20; with indexes for 2 to 8 characters it reads 20 (0.02 ms). Longer words are
-- selective enough that gathering their matches is cheap. Each table is rebuilt from its
-- content table; the triggers that keep it (0010, 0018, 0020) refer to it by name and stay.
-- The radios' index (0019) is contentless and its uid searches are already narrow: unchanged.

DROP TABLE accounts_fts;
CREATE VIRTUAL TABLE accounts_fts USING fts5(
  name, content = 'accounts', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO accounts_fts (accounts_fts) VALUES ('rebuild');

DROP TABLE sites_fts;
CREATE VIRTUAL TABLE sites_fts USING fts5(
  name, content = 'sites', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO sites_fts (sites_fts) VALUES ('rebuild');

DROP TABLE locations_fts;
CREATE VIRTUAL TABLE locations_fts USING fts5(
  name, content = 'locations', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO locations_fts (locations_fts) VALUES ('rebuild');

DROP TABLE profiles_fts;
CREATE VIRTUAL TABLE profiles_fts USING fts5(
  name, content = 'profiles', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO profiles_fts (profiles_fts) VALUES ('rebuild');

DROP TABLE users_fts;
CREATE VIRTUAL TABLE users_fts USING fts5(
  name, email, content = 'users', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO users_fts (users_fts) VALUES ('rebuild');

DROP TABLE fc_customers_fts;
CREATE VIRTUAL TABLE fc_customers_fts USING fts5(
  name, phone, email, content = 'fc_customers', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO fc_customers_fts (fc_customers_fts) VALUES ('rebuild');

DROP TABLE fc_sessions_fts;
CREATE VIRTUAL TABLE fc_sessions_fts USING fts5(
  subject, content = 'fc_sessions', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'
);
INSERT INTO fc_sessions_fts (fc_sessions_fts) VALUES ('rebuild');
