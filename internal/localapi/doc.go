// Package localapi is a local implementation of the service's pipeline
// config API: both collections (pipeline_transformation_configs and
// pipeline_import_apps_configs) and all eight operations, behaving as
// ../shared/api/live-service-notes.md describes the live service, quirks
// included. It is the embedded live instance for the demo and for
// acceptance tests.
//
// A Server is an http.Handler over a SQLite store (pure Go). Start serves
// one on a TCP address; the localapitest package wraps that for tests and
// cmd/localapi is the command. Test switches (rate limit, injected faults,
// latency) are off by default and can be changed on a running server;
// request counters and recorded job runs are readable in process.
//
// Files: server.go (the handler and order of checks), routes.go, auth.go,
// body.go and validate.go (request bodies and field rules), filters.go,
// records.go (answers), configs.go (list, create, retrieve, update,
// delete), jobs.go, rearrange.go, frontend.go, pagination.go, store.go,
// faults.go, ratelimit.go, counters.go, plugins.go (the catalog format),
// catalog.go, seed.go (seeded keys and plugins), debug.go, start.go.
package localapi
