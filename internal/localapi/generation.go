package localapi

import (
	"errors"
	"fmt"
)

// The service generations of the notes' last section. A server behaves as
// one of them at a time; SetGeneration switches a running server, so a
// test can make configs under generation 1 and meet them again under 2.
const (
	// Generation1 is the legacy plugin-config API of 2024 to mid-2025.
	Generation1 = 1
	// Generation2 is the API after PostHog PR #35545: a create makes a hog
	// function and stores nothing, job is gone, records have no filters,
	// and migrate and activity are new.
	Generation2 = 2
	// Generation3 has no collections: every route of both answers 404.
	Generation3 = 3
)

// service is what a server behaves as: a generation, and whether its
// generation 2 is today's (the notes' "The service as it is in 2026"). The
// today flag is kept while the server is at generation 1 or 3, which
// behave as they always did, so that a test can make configs at generation
// 1 and meet them again with SetGeneration(2) on today's service.
type service struct {
	gen   int
	today bool
}

// todayBit marks today's mode in the server's one atomic service value,
// above the generation, so that a request reads both at once.
const todayBit = 1 << 8

func (v service) pack() int32 {
	n := int32(v.gen) //nolint:gosec // G115: checked to be 1..3
	if v.today {
		n |= todayBit
	}
	return n
}

func unpack(n int32) service { return service{gen: int(n &^ todayBit), today: n&todayBit != 0} }

// isToday reports whether requests are served as today's service: the
// today flag, at generation 2.
func (v service) isToday() bool { return v.today && v.gen == Generation2 }

func checkGeneration(gen int) error {
	if gen < Generation1 || gen > Generation3 {
		return fmt.Errorf("generation %d: want %d, %d or %d", gen, Generation1, Generation2, Generation3)
	}
	return nil
}

// SetGeneration makes the server behave as generation gen (1, 2 or 3) from
// the next request on; requests under way finish as they began. The
// database is the same for every generation. Today's mode (SetToday) is
// kept: it applies whenever the generation is 2.
func (s *Server) SetGeneration(gen int) error {
	if err := s.setService(&gen, nil); err != nil {
		return fmt.Errorf("localapi: %w", err)
	}
	return nil
}

// Generation reports the generation the server behaves as.
func (s *Server) Generation() int { return s.service().gen }

// SetToday switches today's mode (Options.Today) on or off from the next
// request on. On, the server behaves as the service does today, which is
// generation 2: it moves to generation 2. Off, generation 2 behaves as it
// did in 2025; the generation stays as it is.
func (s *Server) SetToday(on bool) { _ = s.setService(nil, &on) } // cannot fail: no generation given

// Today reports whether today's mode is on (whatever the generation: it
// applies at generation 2).
func (s *Server) Today() bool { return s.service().today }

func (s *Server) service() service { return unpack(s.mode.Load()) }

// setService sets what a PUT of /_localapi/generation gives, at once:
// today's mode as SetToday does, then the generation as SetGeneration
// does, each when given (a generation given with today's mode on wins over
// the generation 2 that today's mode implies).
func (s *Server) setService(gen *int, today *bool) error {
	switch {
	case gen == nil && today == nil:
		return errors.New("give generation, today or both")
	case gen != nil:
		if err := checkGeneration(*gen); err != nil {
			return err
		}
	}
	s.updateService(func(v service) service {
		if today != nil {
			if v.today = *today; v.today {
				v.gen = Generation2
			}
		}
		if gen != nil {
			v.gen = *gen
		}
		return v
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

// servedIn reports whether generation gen has the route. A route it lacks
// answers 404 before anything else, as an unknown path does.
func (rt route) servedIn(gen int) bool {
	switch {
	case rt.isHogFunction() || rt.isTemplate():
		return true // hog functions outlive the plugin API
	case rt.kind == routeNone || gen >= Generation3:
		return false
	case rt.kind == routeJob:
		return gen < Generation2
	case rt.kind == routeMigrate || rt.kind == routeActivity:
		return gen >= Generation2
	}
	return true
}
