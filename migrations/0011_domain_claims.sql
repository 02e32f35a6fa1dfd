-- Single sign-on domains must be proven before they route anyone (issue 9, §3): a provider's
-- claim on an email domain is one row here, with the token its owner publishes in a DNS TXT
-- record, and routes sign-ins only once proven (by that record, by the vendor organization's
-- approval, or by the local demo seed). A domain is proven for one provider at most; unproven
-- claims block nobody, so a squatter cannot keep the rightful owner out.
CREATE TABLE identity_provider_domains (
  provider_id  TEXT NOT NULL REFERENCES identity_providers(id) ON DELETE CASCADE,
  domain       TEXT NOT NULL,
  token        TEXT NOT NULL,
  proven_at    TEXT,
  proven_by    TEXT CHECK (proven_by IN ('dns', 'vendor', 'seed')),
  PRIMARY KEY (provider_id, domain)
);
CREATE UNIQUE INDEX identity_provider_domains_proven ON identity_provider_domains(domain) WHERE proven_at IS NOT NULL;

-- Claims made before this migration routed on trust alone: they start unproven.
INSERT INTO identity_provider_domains (provider_id, domain, token)
  SELECT p.id, d.value, lower(hex(randomblob(16))) FROM identity_providers p, json_each(p.email_domains) d;
