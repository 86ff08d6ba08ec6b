-- The organisation's storage quota (issue 29, STORAGE_QUOTA_MB): what its files take is summed from this index alone.
create index files_org_size_idx on files (organisation_id) include (size);
