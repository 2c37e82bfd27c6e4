package localapi

import "net/http"

// migrate (generation 2) turns the config into a hog function when its
// plugin has a migrator, and disables the config; the config itself stays.
// The answer is the hog function. Every call makes one: migrating twice
// makes two, as a second create would.
func (s *Server) migrate(req *request) *apiError {
	id, ok := req.recordID()
	if !ok || req.noAccess {
		return errRecordNotFound()
	}
	var hf *HogFunction
	var plugin *catalogEntry
	rec, err := s.store.update(req.ctx, req.project, id, func(tx *storeTx, rec *record) error {
		if !req.route.coll.shows(rec) {
			return errRecordNotFound()
		}
		plugin = req.cat.get(rec.Plugin)
		if plugin == nil || !plugin.HasMigrator {
			return errInvalid(DetailNoMigration, "")
		}
		var err error
		if hf, err = hogFunctionOf(plugin, rec, &rec.ID); err != nil {
			return err
		}
		rec.Enabled = false
		return tx.addHogFunction(hf)
	}, func(before, after *record) (*Activity, error) {
		made := activityChange{Type: "HogFunction", Action: "created", Field: "hog_function", After: hf.ID}
		return s.activityOf(activityMigrated, before, after, made)
	})
	switch {
	case err != nil:
		return s.failed(req, err)
	case rec == nil:
		return errRecordNotFound()
	}
	writeJSON(req.w, http.StatusOK, hf.view(req.cat))
	return nil
}
