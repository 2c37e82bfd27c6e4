package localapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Debug routes (Options.DebugRoutes, command flag -debug-routes) let a test
// or a user read counters, job runs, hog functions and the plugin catalog of
// a running command, and change its test switches, version and plugins
// (an upgrade of a plugin, SetPlugin). They need no key and are
// never faulted or throttled.
const debugPrefix = "/_localapi/"

func isDebugPath(p string) bool { return strings.HasPrefix(p+"/", debugPrefix) }

// faultsDoc is Faults as JSON, latency as a Go duration string ("50ms").
type faultsDoc struct {
	Rate429   float64 `json:"rate_429"`
	Rate502   float64 `json:"rate_502"`
	Rate503   float64 `json:"rate_503"`
	ResetRate float64 `json:"reset_rate"`
	Latency   string  `json:"latency"`
	Seed      uint64  `json:"seed"`
	// EndlessPages and PagePadding shape list pages (see Faults).
	EndlessPages bool  `json:"endless_pages"`
	PagePadding  int64 `json:"page_padding"`
}

// generationDoc is the service the server behaves as: its version, the
// generation that belongs to, and today's mode. A PUT may leave any out,
// which stays as it is; given together, today's mode applies first, then
// the generation, then the version.
type generationDoc struct {
	Version    string `json:"version"`
	Generation int    `json:"generation"`
	Today      bool   `json:"today"`
}

// pluginAccessDoc is Options.NoPluginAccess.
type pluginAccessDoc struct {
	NoPluginAccess bool `json:"no_plugin_access"`
}

type generationPut struct {
	Version    *string `json:"version"`
	Generation *int    `json:"generation"`
	Today      *bool   `json:"today"`
}

func (s *Server) serveDebug(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, debugPrefix), "/")
	switch {
	case path == "counters" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, s.Counters())
	case path == "counters/reset" && r.Method == http.MethodPost:
		s.ResetCounters()
		w.WriteHeader(http.StatusNoContent)
	case path == "jobs" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, s.Jobs())
	case path == "jobs" && r.Method == http.MethodDelete:
		answerReset(w, s.ResetJobs())
	case path == "hog-functions" && r.Method == http.MethodGet:
		hfs := s.HogFunctions()
		for i := range hfs {
			// No secret over HTTP: inputs as the API shows them.
			hfs[i].Inputs = hfs[i].maskedInputs()
		}
		writeJSON(w, http.StatusOK, hfs)
	case path == "hog-functions" && r.Method == http.MethodDelete:
		answerReset(w, s.ResetHogFunctions())
	case path == "bulk-migrate" && r.Method == http.MethodPost:
		s.serveBulkMigrate(w, r)
	case path == "generation" && r.Method == http.MethodGet:
		v := s.service()
		writeJSON(w, http.StatusOK, generationDoc{Version: v.v.String(), Generation: generationOf(v.v), Today: v.today || v.isToday()})
	case path == "generation" && r.Method == http.MethodPut:
		var doc generationPut
		if !readDebugBody(w, r, &doc) {
			return
		}
		var v Version
		if doc.Version != nil {
			var err error
			if v, err = ParseVersion(*doc.Version); err != nil {
				writeError(w, errInvalid(err.Error(), "version"))
				return
			}
		}
		if err := s.setService(doc.Generation, doc.Today, v); err != nil {
			writeError(w, errInvalid(err.Error(), "generation"))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case path == "plugin-access" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, pluginAccessDoc{NoPluginAccess: s.NoPluginAccess()})
	case path == "plugin-access" && r.Method == http.MethodPut:
		var doc pluginAccessDoc
		if !readDebugBody(w, r, &doc) {
			return
		}
		s.SetNoPluginAccess(doc.NoPluginAccess)
		w.WriteHeader(http.StatusNoContent)
	case path == "faults" && r.Method == http.MethodGet:
		f := s.CurrentFaults()
		writeJSON(w, http.StatusOK, faultsDoc{f.Rate429, f.Rate502, f.Rate503, f.ResetRate, f.Latency.String(), f.Seed, f.EndlessPages, f.PagePadding})
	case path == "faults" && r.Method == http.MethodPut:
		var doc faultsDoc
		if !readDebugBody(w, r, &doc) {
			return
		}
		f := Faults{Rate429: doc.Rate429, Rate502: doc.Rate502, Rate503: doc.Rate503, ResetRate: doc.ResetRate, Seed: doc.Seed,
			EndlessPages: doc.EndlessPages, PagePadding: doc.PagePadding}
		if doc.Latency != "" {
			d, err := time.ParseDuration(doc.Latency)
			if err != nil {
				writeError(w, errInvalid("latency: "+err.Error(), "latency"))
				return
			}
			f.Latency = d
		}
		s.SetFaults(f)
		w.WriteHeader(http.StatusNoContent)
	case path == "plugins" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, s.Plugins())
	case strings.HasPrefix(path, "plugins/") && r.Method == http.MethodPut:
		s.putPlugin(w, r, strings.TrimPrefix(path, "plugins/"))
	case path == "rate-limit" && r.Method == http.MethodPut:
		// A limit left out of the document is left as it is.
		var doc struct {
			PerMinute *int `json:"per_minute"`
			PerHour   *int `json:"per_hour"`
		}
		if !readDebugBody(w, r, &doc) {
			return
		}
		if doc.PerMinute != nil {
			s.SetRateLimit(*doc.PerMinute)
		}
		if doc.PerHour != nil {
			s.SetHourlyRateLimit(*doc.PerHour)
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeError(w, errRecordNotFound())
	}
}

// putPlugin serves PUT /_localapi/plugins/{id}: the body is one plugin as
// in a -plugins file (its id may be left out), which SetPlugin adds or
// puts in place of plugin id.
func (s *Server) putPlugin(w http.ResponseWriter, r *http.Request, rawID string) {
	id, err := strconv.ParseInt(rawID, 10, 64)
	if err != nil || id <= 0 {
		writeError(w, errRecordNotFound())
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		writeError(w, errParse("JSON parse error - "+err.Error()))
		return
	}
	var p Plugin
	if err := strictDecode(data, &p); err != nil {
		writeError(w, errParse("JSON parse error - "+err.Error()))
		return
	}
	switch {
	case p.ID == 0:
		p.ID = id
	case p.ID != id:
		writeError(w, errInvalid(fmt.Sprintf("The body's id %d is not the path's %d.", p.ID, id), "id"))
		return
	}
	if err := s.SetPlugin(p); err != nil {
		writeError(w, errInvalid(err.Error(), ""))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// readDebugBody decodes a debug route's JSON body into v, or answers 400.
func readDebugBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(v); err != nil {
		writeError(w, errParse("JSON parse error - "+err.Error()))
		return false
	}
	return true
}

// answerReset answers a DELETE that forgot recorded data: 204, or 500 when
// the store failed.
func answerReset(w http.ResponseWriter, err error) {
	if err != nil {
		writeError(w, errServer())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// serveBulkMigrate serves POST /_localapi/bulk-migrate {"project": N,
// "test_mode": B}: BulkMigrate, answered with the hog functions made as
// the hog-functions route shows them, or 400 saying why it failed.
func (s *Server) serveBulkMigrate(w http.ResponseWriter, r *http.Request) {
	var doc struct {
		Project  int64 `json:"project"`
		TestMode bool  `json:"test_mode"`
	}
	if !readDebugBody(w, r, &doc) {
		return
	}
	if !s.projects[doc.Project] {
		writeError(w, errInvalid(fmt.Sprintf("No project %d.", doc.Project), "project"))
		return
	}
	made, err := s.BulkMigrate(doc.Project, BulkMigration{TestMode: doc.TestMode})
	if err != nil {
		writeError(w, errInvalid(err.Error(), ""))
		return
	}
	for i := range made {
		made[i].Inputs = made[i].maskedInputs()
	}
	writeJSON(w, http.StatusOK, made)
}
