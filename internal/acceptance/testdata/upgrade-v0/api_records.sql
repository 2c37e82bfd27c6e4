-- The local API's records behind terraform.tfstate, as the apply that wrote
-- that state left them (table plugin_configs of internal/localapi's store).

INSERT INTO plugin_configs (id, team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at)
  VALUES (1, 1, 4, 1, 4, NULL, 'Nightly BigQuery sync.', 0, NULL, '{"dataset":"events"}', 1795467855566248, 1795467855566248);
INSERT INTO plugin_configs (id, team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at)
  VALUES (2, 1, 3, 0, 2, NULL, NULL, 0, NULL, '{}', 1795467855568042, 1795467855568042);
INSERT INTO plugin_configs (id, team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at)
  VALUES (3, 1, 1, 1, 1, 'GeoIP, every argument', 'Enriches pageviews with their location.', 0, '{"events":[{"id":"$pageview","name":"$pageview","properties":[],"type":"events"}]}', '{"locale":"en"}', 1795467855568619, 1795467855568619);
INSERT INTO plugin_configs (id, team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at)
  VALUES (4, 1, 2, 0, 3, 'Property Filter', NULL, 0, '{"actions":[{"id":"7","properties":[],"type":"actions"}],"filter_test_accounts":true}', '{"properties":"$ip"}', 1795467855569162, 1795467855569162);
