package localapi

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"
)

// JobRun is one accepted job request, recorded so tests can see it ran.
type JobRun struct {
	ConfigID  int64           `json:"config_id"`
	Project   int64           `json:"project"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	Operation string          `json:"operation"`
	At        time.Time       `json:"at"`
}

// Jobs returns every recorded job run, oldest first.
func (s *Server) Jobs() []JobRun {
	runs, err := s.store.jobRuns(context.Background())
	if err != nil {
		s.log.Error("reading job runs", "err", err)
	}
	return runs
}

// ResetJobs forgets the recorded job runs.
func (s *Server) ResetJobs() error { return s.store.resetJobs(context.Background()) }

// job validates {"job": {"type", "payload", "operation"}} against the
// plugin's public jobs, records the run and answers 200 with an empty body.
func (s *Server) job(req *request) *apiError {
	rec, e := s.findInCollection(req)
	if e != nil {
		return e
	}
	b, e := readBody(req.w, req.r)
	if e != nil {
		return e
	}
	spec, e := jobRequest(b)
	if e != nil {
		return e
	}
	plugin := req.cat.get(rec.Plugin)
	typ, e := validateJob(plugin, spec)
	if e != nil {
		return e
	}
	payload, err := marshalJSON(spec.payload)
	if err != nil {
		return s.internal(req, err)
	}
	run := JobRun{ConfigID: rec.ID, Project: req.project, Type: typ, Payload: payload,
		Operation: spec.operation, At: time.Now().UTC()}
	if err := s.store.addJob(req.ctx, run); err != nil {
		return s.internal(req, err)
	}
	req.w.WriteHeader(http.StatusOK)
	return nil
}

type jobSpec struct {
	typ       any
	payload   map[string]any
	operation string
}

// jobRequest reads the body's job object. Like the live service, a job
// without a type is refused before anything else is looked at.
func jobRequest(b *body) (*jobSpec, *apiError) {
	var job any
	if b.isForm() {
		if v, ok := b.formValue("job"); ok {
			job, _ = decodeJSON([]byte(v))
		}
	} else {
		obj, isObj := b.json.(map[string]any)
		if (b.json != nil || b.isNull) && !isObj {
			return nil, errServer() // the live view calls .get on the body
		}
		job = obj["job"]
	}
	jobObj, ok := job.(map[string]any)
	if !ok {
		return nil, errInvalid("The job type must be specified!", "")
	}
	typ, ok := jobObj["type"]
	if !ok {
		return nil, errInvalid("The job type must be specified!", "")
	}
	spec := &jobSpec{typ: typ, payload: map[string]any{}, operation: "start"}
	switch p := jobObj["payload"].(type) {
	case nil:
	case map[string]any:
		spec.payload = p
	default:
		return nil, errInvalid("The job payload must be an object.", "")
	}
	switch op := jobObj["operation"].(type) {
	case nil:
	case string:
		spec.operation = op
	default:
		raw, _ := marshalJSON(op)
		spec.operation = string(raw)
	}
	return spec, nil
}

// validateJob checks a job against the plugin's public jobs, with the live
// service's messages, and returns the job's type. Payload keys are checked
// in sorted order.
func validateJob(plugin *catalogEntry, spec *jobSpec) (string, *apiError) {
	fail := func(msg string) (string, *apiError) { return "", errInvalid(msg, "") }
	if plugin == nil || len(plugin.PublicJobs) == 0 {
		return fail("Plugin has no public jobs")
	}
	switch spec.typ.(type) {
	case []any, map[string]any:
		return "", errServer() // unhashable in the live lookup
	}
	name, isStr := spec.typ.(string)
	def, known := plugin.PublicJobs[name]
	if !isStr || !known {
		return fail("Unknown plugin job: " + pyRepr(spec.typ))
	}
	fields := slices.Sorted(maps.Keys(def.Payload))
	for _, k := range fields {
		if _, sent := spec.payload[k]; def.Payload[k].Required && !sent {
			return fail("Missing required job field: " + k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(spec.payload)) {
		if _, ok := def.Payload[k]; !ok {
			return fail("Unknown field for job: " + k)
		}
	}
	return name, nil
}
