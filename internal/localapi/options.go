package localapi

import (
	"errors"
	"log/slog"
	"time"
)

// Options configure a Server. The zero value is the seeded in-memory
// instance with every test switch off.
type Options struct {
	// DBPath is the SQLite file that keeps data across restarts; "" keeps
	// everything in memory.
	DBPath string
	// Plugins replaces the seeded catalog (DefaultPlugins) when non-nil.
	Plugins []Plugin
	// Keys replaces the seeded personal API keys (DefaultKeys) when non-nil.
	Keys []APIKey
	// Projects replaces the seeded project IDs (1 and 2) when non-nil.
	Projects []int64
	// Version is the service version to behave as (VersionB to VersionF);
	// 0 leaves it to Generation and Today. Change it later with SetVersion.
	Version Version
	// Generation names a version the way earlier versions of this API did
	// (see Generation1): 1 (the zero value too) is B, 2 is E, 3 is F. With
	// Today, 0 is E2026. Change it later with SetGeneration.
	Generation int
	// Today serves the service as it is today, version E2026 (the notes'
	// "The service as it is in 2026"): every key has scopes, creates make
	// nothing but from a form's config, job and unknown paths answer
	// "Endpoint not found.", records have no delivery_rate_24h, and hog
	// functions refuse hidden templates. With Generation 1 or 3 the server
	// starts as B or F, and Generation 2 (SetGeneration) then means E2026,
	// so a test can make configs at B first, which today's service cannot.
	// Change it later with SetToday.
	Today bool
	// FirstConfigID is the id of the first config the server makes (1
	// when 0): the id sequence of a real instance has moved on, and its
	// config ids overlap its plugin ids, or not. A -db file whose sequence
	// is past it keeps its own.
	FirstConfigID int64
	// NoPluginAccess gives the organization a plugin access level below
	// "config" (PostHog's plugins_access_level NONE), at every generation:
	// creates are 400 "Plugin configuration is not available for the
	// current organization!", the collections show no config, and the
	// plugin listings are 403. Change it later with SetNoPluginAccess.
	NoPluginAccess bool

	// RateLimitPerMinute, when positive, throttles each key to that many
	// requests in any sliding minute (429 with Retry-After): the live
	// service's burst limit (480).
	RateLimitPerMinute int
	// RateLimitPerHour, when positive, throttles each key to that many
	// requests in any sliding hour: the live service's sustained limit
	// (4800). Its Retry-After can be many minutes.
	RateLimitPerHour int
	// Faults injects failures; see Faults. Change it later with SetFaults.
	Faults Faults

	// DebugRoutes serves GET /_localapi/counters and /_localapi/jobs (and
	// PUT /_localapi/faults) without authentication.
	DebugRoutes bool
	// Logger receives server-side errors; nil discards them.
	Logger *slog.Logger
	// Addr is where Start listens; "" is 127.0.0.1:0 (a free port).
	Addr string
}

// Faults are test switches that make the server misbehave like a real
// network and service. Shares are in [0, 1]. They are decided before the
// request is handled, so an injected failure never hides a committed write:
// a faulted request did nothing.
type Faults struct {
	// Rate429, Rate502 and Rate503 are the shares of requests answered
	// 429 (with Retry-After: 1), 502 and 503 instead of being handled.
	Rate429 float64
	Rate502 float64
	Rate503 float64
	// ResetRate is the share of requests whose connection is reset
	// without an answer.
	ResetRate float64
	// Latency is added before every request is handled.
	Latency time.Duration
	// EndlessPages makes lists never end: every page is full of records
	// made up past the stored ones (fresh ids, never stored), and count is
	// always one record past the page, so next always points further.
	EndlessPages bool
	// PagePadding, when positive, adds that many spaces after each list
	// page's JSON: an oversized answer that is still valid JSON.
	PagePadding int64
	// Seed makes the fault draws reproducible when non-zero.
	Seed uint64
}

// APIKey is a personal API key.
type APIKey struct {
	Key string `json:"key"`
	// Scopes like "plugin:read", "plugin:write" or "*". A key without
	// scopes is a legacy key: allowed everything, custom actions included.
	Scopes []string `json:"scopes"`
	// Projects the key may use; the first is its current project
	// (@current). Empty allows every project.
	Projects []int64 `json:"projects"`
	// LimitedToProjects says Projects are the key's own limit (PostHog's
	// scoped_teams), not merely the projects its owner belongs to: such a
	// key with scopes may call only project-based endpoints, and the
	// organization's plugin listings answer it 403.
	LimitedToProjects bool `json:"limited_to_projects,omitempty"`
}

// service is the version the options ask for, with today's mode.
func (o Options) service() (service, error) {
	if o.FirstConfigID < 0 {
		return service{}, errors.New("FirstConfigID must not be negative")
	}
	svc := service{today: o.Today}
	switch {
	case o.Version != 0:
		if !o.Version.valid() {
			return service{}, errors.New(o.Version.String() + ": not a version")
		}
		svc.v = o.Version
	case o.Generation == 0 && o.Today:
		svc.v = VersionE2026
	case o.Generation == 0:
		svc.v = VersionB
	default:
		v, err := generationVersion(o.Generation, o.Today)
		if err != nil {
			return service{}, err
		}
		svc.v = v
	}
	return svc, nil
}
