package localapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// The five record operations. Both collections share them: a collection
// only decides which records are visible.

func (s *Server) list(req *request) *apiError {
	limit, offset := pageWindow(req.r)
	// Every generation leaves deleted configs out of lists (and count);
	// an organization without plugin access sees none.
	var recs []*record
	var count int64
	if !req.noAccess {
		var err error
		if recs, count, err = s.store.list(req.ctx, req.route.coll.ids, req.project, limit, offset); err != nil {
			return s.internal(req, err)
		}
	}
	faults := s.CurrentFaults()
	if faults.EndlessPages {
		recs, count = endlessPage(req.route.coll, req.project, limit, offset)
	}
	views := make([]*recordView, len(recs))
	for i, rec := range recs {
		views[i] = rec.view(req.cat, false, req.svc)
	}
	page := newPage(req.r, count, limit, offset, views)
	if faults.PagePadding > 0 {
		writePadded(req.w, page, faults.PagePadding)
		return nil
	}
	writeJSON(req.w, http.StatusOK, page)
	return nil
}

// endlessFirstID is the first id of the records EndlessPages makes up,
// far past any stored one.
const endlessFirstID = 1 << 40

// endlessPage is the page of the EndlessPages switch: limit records (at
// most 1,000) made up of the collection's first plugin, and a count one
// record past them.
func endlessPage(coll *collection, project, limit, offset int64) ([]*record, int64) {
	var plugin int64
	if len(coll.ids) > 0 {
		plugin = coll.ids[0]
	}
	now := time.Now().UnixMicro()
	recs := make([]*record, min(limit, 1000))
	for i := range recs {
		n := offset + int64(i)
		recs[i] = &record{ID: endlessFirstID + n, Team: project, Plugin: plugin, Order: n,
			Config: json.RawMessage(`{}`), CreatedAt: now, UpdatedAt: now}
	}
	return recs, offset + int64(len(recs)) + 1
}

// writePadded answers v followed by pad spaces (PagePadding), written a
// chunk at a time and stopped once the client is gone.
func writePadded(w http.ResponseWriter, v any, pad int64) {
	buf, err := marshalJSON(v)
	if err != nil {
		writeJSON(w, http.StatusOK, v) // its 500
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.FormatInt(int64(len(buf))+pad, 10))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(buf); err != nil {
		return
	}
	chunk := bytes.Repeat([]byte(" "), 64<<10)
	for pad > 0 {
		n, err := w.Write(chunk[:min(pad, int64(len(chunk)))])
		if err != nil {
			return
		}
		pad -= int64(n)
	}
}

// create stores a config (versions B to D) or, from E on, makes a hog
// function of it and stores nothing.
func (s *Server) create(req *request) *apiError {
	b, e := readBody(req.w, req.r)
	if e != nil {
		return e
	}
	in, e := parseConfigInput(b, req.cat, false, req.svc.v.hasFilters())
	if e != nil {
		return e
	}
	if req.noAccess {
		return errInvalid(DetailNoPluginAccess, "")
	}
	// The plugin's kind is not checked: a config created through the wrong
	// collection is stored, and then invisible there, as on the live service.
	rec := &record{Team: req.project, Plugin: *in.plugin, Order: *in.order, Config: json.RawMessage(`{}`)}
	in.apply(rec, nil, false)
	if !req.svc.v.storesCreates() {
		return s.createHogFunction(req, rec, in, b.isForm())
	}
	if in.unstorable {
		return errServer()
	}
	if err := s.store.create(req.ctx, rec, s.logAs(activityCreated)); err != nil {
		return s.internal(req, err)
	}
	writeJSON(req.w, http.StatusCreated, rec.view(req.cat, true, req.svc))
	return nil
}

func (s *Server) retrieve(req *request) *apiError {
	rec, e := s.findInCollection(req)
	if e != nil {
		return e
	}
	writeJSON(req.w, http.StatusOK, rec.view(req.cat, true, req.svc))
	return nil
}

// update serves PATCH (partial) and PUT (plugin and order required). The
// record is looked up before the body is judged: a missing record is 404
// whatever the body says.
func (s *Server) update(req *request) *apiError {
	id, ok := req.recordID()
	if !ok {
		return errRecordNotFound()
	}
	b, bodyErr := readBody(req.w, req.r)
	var in *configInput
	if bodyErr == nil {
		in, bodyErr = parseConfigInput(b, req.cat, req.r.Method == http.MethodPatch, req.svc.v.hasFilters())
	}
	if bodyErr == nil && in.unstorable {
		bodyErr = errServer() // the save fails, after the record is found
	}
	rec, err := s.store.update(req.ctx, req.project, id, func(_ *storeTx, rec *record) error {
		if req.noAccess || !req.route.coll.shows(rec) {
			return errRecordNotFound()
		}
		if bodyErr != nil {
			return bodyErr
		}
		in.apply(rec, req.cat.get(rec.Plugin), true)
		return nil
	}, s.logAs(activityUpdated))
	switch {
	case err != nil:
		return s.failed(req, err)
	case rec == nil:
		return errRecordNotFound()
	}
	writeJSON(req.w, http.StatusOK, rec.view(req.cat, true, req.svc))
	return nil
}

// delete only disables the record, looked up in the whole project; an
// unknown (or non-integer) id is a 500, as on the live service. An
// organization without plugin access gets a 404 without a body.
func (s *Server) delete(req *request) *apiError {
	if req.noAccess {
		req.w.WriteHeader(http.StatusNotFound)
		return nil
	}
	id, ok := req.recordID()
	if !ok {
		return errServer()
	}
	rec, err := s.store.update(req.ctx, req.project, id, func(_ *storeTx, rec *record) error {
		rec.Enabled = false
		return nil
	}, s.logAs(activityDeleted))
	switch {
	case err != nil:
		return s.internal(req, err)
	case rec == nil:
		return errServer()
	}
	req.w.WriteHeader(http.StatusNoContent)
	return nil
}

// findInCollection loads the :id record if the route's collection shows it.
func (s *Server) findInCollection(req *request) (*record, *apiError) {
	id, ok := req.recordID()
	if !ok || req.noAccess {
		return nil, errRecordNotFound()
	}
	rec, err := s.store.find(req.ctx, req.project, id)
	if err != nil {
		return nil, s.internal(req, err)
	}
	if rec == nil || !req.route.coll.shows(rec) {
		return nil, errRecordNotFound()
	}
	return rec, nil
}

// apply writes the input's fields onto rec. On an update, plugin is rec's
// plugin: its secret config keys survive an update that leaves them out or
// sends null.
func (in *configInput) apply(rec *record, plugin *catalogEntry, update bool) {
	// plugin is set at create only; an update ignores it.
	if in.enabled != nil {
		rec.Enabled = *in.enabled
	}
	if in.order != nil {
		rec.Order = *in.order
	}
	if in.name.set {
		rec.Name = in.name.value
	}
	if in.description.set {
		rec.Description = in.description.value
	}
	if in.filters.set {
		rec.Filters = in.filters.value
	}
	if in.deleted != nil {
		rec.Deleted = *in.deleted
		// Soft deletion disables, on update only (the live create keeps
		// what it is sent).
		if *in.deleted && update {
			rec.Enabled = false
		}
	}
	if in.config != nil {
		rec.Config = mergeConfig(rec.Config, in.config, plugin)
	}
}

// mergeConfig is the live rule: the sent object replaces the stored config,
// except that secret keys sent as null or left out keep their stored value
// (null when there was none).
func mergeConfig(stored json.RawMessage, sent map[string]json.RawMessage, plugin *catalogEntry) json.RawMessage {
	if plugin != nil && len(plugin.secrets) > 0 {
		var old map[string]json.RawMessage
		_ = json.Unmarshal(stored, &old)
		for _, k := range plugin.secrets {
			if v, ok := sent[k]; !ok || string(v) == "null" {
				if prev, had := old[k]; had {
					sent[k] = prev
				} else {
					sent[k] = json.RawMessage("null")
				}
			}
		}
	}
	out, err := marshalJSON(sent)
	if err != nil {
		return stored
	}
	return out
}
