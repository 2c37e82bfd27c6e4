package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// projectsService answers the records of a few projects: GET of a record
// (404 outside its project) and a list, "@current" standing for current.
type projectsService struct {
	mu      sync.Mutex
	current int64
	team    map[int64]int64 // record id: its project
	teamID  bool            // whether answers carry team_id
	fail    bool            // answer 500
	gets    map[string]int  // GETs of a record, by project address
}

func newProjectsService(t *testing.T, current int64, team map[int64]int64) (*projectsService, *Client) {
	t.Helper()
	s := &projectsService{current: current, team: team, teamID: true, gets: map[string]int{}}
	rec := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		// /api/projects/P/pipeline_transformation_configs/[ID/]
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		project := s.current
		if parts[2] != CurrentProject {
			project, _ = strconv.ParseInt(parts[2], 10, 64)
		}
		record := func(id int64) string {
			if s.teamID {
				return fmt.Sprintf(`{"id":%d,"plugin":1,"team_id":%d}`, id, s.team[id])
			}
			return fmt.Sprintf(`{"id":%d,"plugin":1}`, id)
		}
		switch {
		case s.fail:
			writeJSON(w, 500, envelope("server_error", "error", "A server error occurred.", ""))
		case len(parts) == 4: // a list
			var recs []string
			for id, team := range s.team {
				if team == project {
					recs = append(recs, record(id))
				}
			}
			writeJSON(w, 200, fmt.Sprintf(`{"count":%d,"next":null,"previous":null,"results":[%s]}`, len(recs), strings.Join(recs, ",")))
		default:
			s.gets[parts[2]]++
			id, _ := strconv.ParseInt(parts[4], 10, 64)
			if s.team[id] != project {
				writeJSON(w, 404, envelope("invalid_request", "not_found", "Not found.", ""))
				return
			}
			writeJSON(w, 200, record(id))
		}
	})
	return s, newTestClient(t, rec.URL)
}

// takeGets returns the record GETs by project address since the last call.
func (s *projectsService) takeGets() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.gets
	s.gets = map[string]int{}
	return g
}

// TestSameProject: "@current" and a project id are compared through what
// answers addressed to "@current" told, else through one lookup of the
// record at hand, which then serves every later comparison; a real change
// of project is told as such.
func TestSameProject(t *testing.T) {
	ctx := context.Background()
	same := func(t *testing.T, c *Client, held, other string, id int64, want bool) {
		t.Helper()
		got, err := c.SameProject(ctx, held, other, Transformations, id)
		if err != nil || got != want {
			t.Errorf("SameProject(%q, %q, record %d) = %v, %v; want %v", held, other, id, got, err, want)
		}
	}

	t.Run("without a request", func(t *testing.T) {
		s, c := newProjectsService(t, 1, map[int64]int64{10: 1})
		same(t, c, "1", "1", 10, true)
		same(t, c, CurrentProject, CurrentProject, 10, true)
		same(t, c, "1", "2", 10, false)
		same(t, c, "1", CurrentProject, 0, false) // nothing to tell by
		if g := s.takeGets(); len(g) != 0 {
			t.Errorf("GETs %v, want none", g)
		}
	})

	t.Run("one lookup, then known", func(t *testing.T) {
		s, c := newProjectsService(t, 1, map[int64]int64{10: 1, 11: 1, 20: 2})
		same(t, c, "1", CurrentProject, 10, true)
		if g := s.takeGets(); g[CurrentProject] != 1 || len(g) != 1 {
			t.Errorf("GETs %v, want one under @current", g)
		}
		if id, ok := c.currentProjectID(); !ok || id != 1 {
			t.Errorf("currentProjectID() = %d, %v; want 1", id, ok)
		}
		same(t, c, CurrentProject, "1", 11, true)
		same(t, c, "2", CurrentProject, 20, false)
		same(t, c, CurrentProject, "2", 20, false)
		if g := s.takeGets(); len(g) != 0 {
			t.Errorf("GETs %v once @current is known, want none", g)
		}
	})

	t.Run("learned from a list", func(t *testing.T) {
		s, c := newProjectsService(t, 2, map[int64]int64{20: 2})
		if _, err := c.List(ctx, CurrentProject, Transformations, 10, 0); err != nil {
			t.Fatal(err)
		}
		same(t, c, "2", CurrentProject, 20, true)
		same(t, c, "1", CurrentProject, 20, false)
		if g := s.takeGets(); len(g) != 0 {
			t.Errorf("GETs %v after a list under @current, want none", g)
		}
	})

	t.Run("another project", func(t *testing.T) {
		_, c := newProjectsService(t, 2, map[int64]int64{10: 1})
		same(t, c, "1", CurrentProject, 10, false)
	})

	t.Run("the current project changed since", func(t *testing.T) {
		// The state holds the record under "@current", which stood for 1;
		// "@current" stands for 2 now.
		s, c := newProjectsService(t, 2, map[int64]int64{10: 1})
		same(t, c, CurrentProject, "1", 10, true)
		s.takeGets()
		same(t, c, CurrentProject, "3", 10, false)
	})

	t.Run("answers without team_id", func(t *testing.T) {
		s, c := newProjectsService(t, 1, map[int64]int64{10: 1, 20: 2})
		s.teamID = false
		same(t, c, "1", CurrentProject, 10, true)
		same(t, c, CurrentProject, "1", 10, true)
		same(t, c, CurrentProject, "2", 10, false)
		if _, ok := c.currentProjectID(); ok {
			t.Error("currentProjectID known from answers without team_id")
		}
	})

	t.Run("a failed lookup", func(t *testing.T) {
		s, c := newProjectsService(t, 1, map[int64]int64{10: 1})
		s.fail = true
		if _, err := c.SameProject(ctx, "1", CurrentProject, Transformations, 10); err == nil {
			t.Error("SameProject after a 500: no error")
		}
	})
}
