// Package localapi is a local implementation of the service's pipeline
// config API: both collections (pipeline_transformation_configs and
// pipeline_import_apps_configs) and all their operations, behaving as
// ../shared/api/live-service-notes.md describes the live service, quirks
// included, at each of the service's versions (B, the seed's, with
// filters, jobs and rearrange keyed by plugin id; C without filters; D
// with rearrange keyed by config id, migrate and activity and no jobs; E,
// whose creates make hog functions; E2026, today's; F: gone). It is the
// embedded live instance for the demo and for acceptance tests.
//
// A Server is an http.Handler over a SQLite store (pure Go). Start serves
// one on a TCP address; the localapitest package wraps that for tests and
// cmd/localapi is the command. Test switches (rate limit, injected faults,
// latency, the version) are off (version B) by default and can be
// changed on a running server, and so can the plugin catalog (an upgrade
// of a plugin, SetPlugin); request counters, recorded job runs, hog
// functions and the configs' change log are readable in process.
//
// Files: server.go (the handler and order of checks), routes.go,
// generation.go (the versions, what each has, and the generations that
// name them), auth.go, body.go and
// validate.go (request bodies and field rules), surrogates.go (what Go's
// JSON decoding loses of a text), filters.go, pyformat.go
// (Python-worded values in details), records.go (answers), configs.go
// (list, create, retrieve, update, delete), jobs.go, rearrange.go,
// frontend.go, hogfunctions.go (creates from version E on), migrate.go,
// activity.go (the change log), pagination.go, store.go (and
// store_hogfunctions.go, store_activity.go), faults.go, ratelimit.go,
// counters.go, plugins.go (the catalog format), config_schema.go (its two
// forms), catalog.go (the catalog a request uses, SetPlugin), seed.go (seeded
// keys and plugins), debug.go, start.go.
package localapi
