package localapi

import "fmt"

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

func checkGeneration(gen int) error {
	if gen < Generation1 || gen > Generation3 {
		return fmt.Errorf("generation %d: want %d, %d or %d", gen, Generation1, Generation2, Generation3)
	}
	return nil
}

// SetGeneration makes the server behave as generation gen (1, 2 or 3) from
// the next request on; requests under way finish as they began. The
// database is the same for every generation.
func (s *Server) SetGeneration(gen int) error {
	if err := checkGeneration(gen); err != nil {
		return fmt.Errorf("localapi: %w", err)
	}
	s.generation.Store(int32(gen)) //nolint:gosec // G115: checked to be 1..3
	return nil
}

// Generation reports the generation the server behaves as.
func (s *Server) Generation() int { return int(s.generation.Load()) }

// servedIn reports whether generation gen has the route. A route it lacks
// answers 404 before anything else, as an unknown path does.
func (rt route) servedIn(gen int) bool {
	switch {
	case rt.kind == routeNone || gen >= Generation3:
		return false
	case rt.kind == routeJob:
		return gen < Generation2
	case rt.kind == routeMigrate || rt.kind == routeActivity:
		return gen >= Generation2
	}
	return true
}
