-- Search of the customer-care desk (src/server/data/fts.ts builds the queries): customers by
-- name, phone or email, sessions by subject. External-content FTS5 kept by triggers, like 0010.
CREATE VIRTUAL TABLE fc_customers_fts USING fts5(
  name, phone, email, content = 'fc_customers', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER fc_customers_fts_insert AFTER INSERT ON fc_customers BEGIN
  INSERT INTO fc_customers_fts (rowid, name, phone, email) VALUES (NEW.rowid, NEW.name, NEW.phone, NEW.email);
END;
CREATE TRIGGER fc_customers_fts_update AFTER UPDATE OF name, phone, email ON fc_customers BEGIN
  INSERT INTO fc_customers_fts (fc_customers_fts, rowid, name, phone, email) VALUES ('delete', OLD.rowid, OLD.name, OLD.phone, OLD.email);
  INSERT INTO fc_customers_fts (rowid, name, phone, email) VALUES (NEW.rowid, NEW.name, NEW.phone, NEW.email);
END;
CREATE TRIGGER fc_customers_fts_delete AFTER DELETE ON fc_customers BEGIN
  INSERT INTO fc_customers_fts (fc_customers_fts, rowid, name, phone, email) VALUES ('delete', OLD.rowid, OLD.name, OLD.phone, OLD.email);
END;

CREATE VIRTUAL TABLE fc_sessions_fts USING fts5(
  subject, content = 'fc_sessions', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER fc_sessions_fts_insert AFTER INSERT ON fc_sessions BEGIN
  INSERT INTO fc_sessions_fts (rowid, subject) VALUES (NEW.rowid, NEW.subject);
END;
CREATE TRIGGER fc_sessions_fts_update AFTER UPDATE OF subject ON fc_sessions BEGIN
  INSERT INTO fc_sessions_fts (fc_sessions_fts, rowid, subject) VALUES ('delete', OLD.rowid, OLD.subject);
  INSERT INTO fc_sessions_fts (rowid, subject) VALUES (NEW.rowid, NEW.subject);
END;
CREATE TRIGGER fc_sessions_fts_delete AFTER DELETE ON fc_sessions BEGIN
  INSERT INTO fc_sessions_fts (fc_sessions_fts, rowid, subject) VALUES ('delete', OLD.rowid, OLD.subject);
END;
