package localapi

import (
	"errors"
	"fmt"
	"strings"
)

// Version is a version of the service, as the notes' "Versions of the
// service" name them. A server behaves as one at a time; SetVersion
// switches a running server, on the same database, so a test can make
// configs under one version and meet them again under a later one.
type Version int8

// The versions of the service, oldest first (the notes' table; version A,
// before June 2024, is out of scope).
const (
	// VersionB is the seed's (June to mid-August 2024): records have
	// filters, job exists, rearrange is keyed by plugin id.
	VersionB Version = iota + 1
	// VersionC (mid-August to 2024-09-19) is B without filters (PostHog PR
	// #24374).
	VersionC
	// VersionD (2024-09-19 to July 2025) keys rearrange by config id (PR
	// #25065), has migrate and activity, and no job.
	VersionD
	// VersionE (PR #35545, July 2025; "generation 2") is D whose creates
	// make a hog function and store nothing.
	VersionE
	// VersionE2026 is E as the service is since March 2026 (the notes'
	// "The service as it is in 2026"): every key scoped, JSON creates
	// refused, no delivery_rate_24h.
	VersionE2026
	// VersionF ("generation 3") has no collections: every route of both
	// answers 404.
	VersionF
)

var versionNames = [...]string{VersionB: "B", VersionC: "C", VersionD: "D", VersionE: "E", VersionE2026: "E2026", VersionF: "F"}

// Versions lists every version, oldest first.
func Versions() []Version {
	return []Version{VersionB, VersionC, VersionD, VersionE, VersionE2026, VersionF}
}

// String is the version's name in the notes' table: "B" to "F", "E2026".
func (v Version) String() string {
	if v.valid() {
		return versionNames[v]
	}
	return fmt.Sprintf("Version(%d)", v)
}

// ParseVersion reads a version's name (String), in any letter case.
func ParseVersion(name string) (Version, error) {
	for _, v := range Versions() {
		if strings.EqualFold(name, v.String()) {
			return v, nil
		}
	}
	return 0, fmt.Errorf("version %q: want one of %s", name, strings.Join(versionNameList(), ", "))
}

func versionNameList() []string {
	names := make([]string, 0, len(versionNames))
	for _, v := range Versions() {
		names = append(names, v.String())
	}
	return names
}

func (v Version) valid() bool { return v >= VersionB && v <= VersionF }

// What each version has, as the notes' table says.

// hasFilters: records have filters, and writes read them (B only).
func (v Version) hasFilters() bool { return v == VersionB }

// hasJob: the job action exists (B and C).
func (v Version) hasJob() bool { return v <= VersionC }

// rearrangesByPlugin: a rearrange key is a plugin id (B and C), not a
// config id.
func (v Version) rearrangesByPlugin() bool { return v <= VersionC }

// hasMigrate: migrate and activity exist, and plugin_info says whether
// a plugin can be migrated (D to E2026).
func (v Version) hasMigrate() bool { return v >= VersionD && v < VersionF }

// storesCreates: a create stores a config (B to D); later, it makes a
// hog function at most.
func (v Version) storesCreates() bool { return v <= VersionD }

// isToday: the service as it is today (E2026).
func (v Version) isToday() bool { return v == VersionE2026 }

// The generations of earlier versions of this API, which name versions:
// generation 1 is B (filters and jobs, as generation 1 had), 2 is E (E2026
// in today's mode, see SetToday), 3 is F. Options.Generation, SetGeneration
// and the command's -generation take them.
const (
	Generation1 = 1
	Generation2 = 2
	Generation3 = 3
)

// generationVersion is the version generation gen stands for, with
// today's mode or without.
func generationVersion(gen int, today bool) (Version, error) {
	switch gen {
	case Generation1:
		return VersionB, nil
	case Generation2:
		if today {
			return VersionE2026, nil
		}
		return VersionE, nil
	case Generation3:
		return VersionF, nil
	}
	return 0, fmt.Errorf("generation %d: want %d, %d or %d", gen, Generation1, Generation2, Generation3)
}

// generationOf is the generation a version belongs to: 1 while creates
// store configs, 2 while they do not, 3 once the API is gone.
func generationOf(v Version) int {
	switch {
	case v.storesCreates():
		return Generation1
	case v < VersionF:
		return Generation2
	}
	return Generation3
}

// service is what a server behaves as: a version, and today's mode, which
// only tells what generation 2 stands for (SetGeneration, SetToday).
type service struct {
	v     Version
	today bool
}

// todayBit marks today's mode in the server's one atomic service value,
// above the version, so that a request reads both at once.
const todayBit = 1 << 8

func (s service) pack() int32 {
	n := int32(s.v)
	if s.today {
		n |= todayBit
	}
	return n
}

func unpack(n int32) service {
	return service{v: Version(n &^ todayBit), today: n&todayBit != 0} //nolint:gosec // G115: pack wrote a Version
}

// isToday reports whether requests are served as today's service.
func (s service) isToday() bool { return s.v.isToday() }

// SetVersion makes the server behave as version v from the next request
// on; requests under way finish as they began. The database is the same
// for every version.
func (s *Server) SetVersion(v Version) error {
	if !v.valid() {
		return fmt.Errorf("localapi: %v: want one of %s", v, strings.Join(versionNameList(), ", "))
	}
	s.updateService(func(svc service) service { svc.v = v; return svc })
	return nil
}

// Version reports the version the server behaves as.
func (s *Server) Version() Version { return s.service().v }

// SetGeneration makes the server behave as generation gen (1, 2 or 3) from
// the next request on: versions B, E (E2026 in today's mode) and F.
func (s *Server) SetGeneration(gen int) error {
	if err := s.setService(&gen, nil, 0); err != nil {
		return fmt.Errorf("localapi: %w", err)
	}
	return nil
}

// Generation reports the generation the server's version belongs to: 1
// for B, C and D (creates store configs), 2 for E and E2026, 3 for F.
func (s *Server) Generation() int { return generationOf(s.service().v) }

// SetToday switches today's mode (Options.Today) on or off from the next
// request on. On, the server moves to E2026, and a later SetGeneration(2)
// means E2026 too. Off, E2026 becomes E; other versions stay as they are.
func (s *Server) SetToday(on bool) { _ = s.setService(nil, &on, 0) } // cannot fail: no generation given

// Today reports whether today's mode is on (whatever the version: it
// tells what generation 2 stands for), or the version is E2026.
func (s *Server) Today() bool { v := s.service(); return v.today || v.isToday() }

func (s *Server) service() service { return unpack(s.mode.Load()) }

// setService sets what a PUT of /_localapi/generation gives, at once:
// today's mode as SetToday does, then the generation as SetGeneration
// does, then the version, each when given.
func (s *Server) setService(gen *int, today *bool, v Version) error {
	switch {
	case gen == nil && today == nil && v == 0:
		return errors.New("give version, generation, today or some of them")
	case v != 0 && !v.valid():
		return fmt.Errorf("%v: want one of %s", v, strings.Join(versionNameList(), ", "))
	case gen != nil:
		if _, err := generationVersion(*gen, false); err != nil {
			return err
		}
	}
	s.updateService(func(svc service) service {
		if today != nil {
			switch svc.today = *today; {
			case svc.today:
				svc.v = VersionE2026
			case svc.v == VersionE2026:
				svc.v = VersionE
			}
		}
		if gen != nil {
			svc.v, _ = generationVersion(*gen, svc.today)
		}
		if v != 0 {
			svc.v = v
		}
		return svc
	})
	return nil
}

func (s *Server) updateService(change func(service) service) {
	for {
		old := s.mode.Load()
		if s.mode.CompareAndSwap(old, change(unpack(old)).pack()) {
			return
		}
	}
}

// SetNoPluginAccess gives the organization a plugin access level below
// "config" (on) or full access (off) from the next request on; see
// Options.NoPluginAccess.
func (s *Server) SetNoPluginAccess(on bool) { s.noPluginAccess.Store(on) }

// NoPluginAccess reports whether the organization's plugin access is below
// "config".
func (s *Server) NoPluginAccess() bool { return s.noPluginAccess.Load() }

// servedIn reports whether version v has the route. A route it lacks
// answers 404 before anything else, as an unknown path does.
func (rt route) servedIn(v Version) bool {
	switch {
	case rt.isHogFunction() || rt.isTemplate():
		return true // hog functions outlive the plugin API
	case rt.kind == routeNone || v >= VersionF:
		return false
	case rt.kind == routeJob:
		return v.hasJob()
	case rt.kind == routeMigrate || rt.kind == routeActivity:
		return v.hasMigrate()
	}
	return true
}
