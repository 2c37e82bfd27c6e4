package localapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Activity is one entry of a config's change log, kept at every generation
// and served by the activity action from generation 2 on.
type Activity struct {
	// ID is a UUID, as PostHog's activity log entries have.
	ID       string `json:"id"`
	Project  int64  `json:"project"`
	ConfigID int64  `json:"config_id"`
	// Activity is what happened: created, updated, deleted or migrated.
	Activity string `json:"activity"`
	// Detail is PostHog's detail object: name, changes, and so on.
	Detail json.RawMessage `json:"detail"`
	At     time.Time       `json:"at"`
}

// What the activity log records.
const (
	activityCreated  = "created"  // a generation 1 create
	activityUpdated  = "updated"  // PATCH or PUT, rearrange: only when something changed
	activityDeleted  = "deleted"  // DELETE, which only disables
	activityMigrated = "migrated" // migrate made a hog function
)

// activityScope is PostHog's scope name of plugin config entries.
const activityScope = "PluginConfig"

// activityDetail is the detail of an entry, in PostHog's shape.
type activityDetail struct {
	Name    *string          `json:"name"`
	ShortID *string          `json:"short_id"`
	Type    *string          `json:"type"`
	Changes []activityChange `json:"changes"`
	Merge   *struct{}        `json:"merge"`
	Trigger *struct{}        `json:"trigger"`
}

// activityChange is one changed field; secret config values are masked.
type activityChange struct {
	Type   string `json:"type"`
	Action string `json:"action"`
	Field  string `json:"field"`
	Before any    `json:"before"`
	After  any    `json:"after"`
}

// logAs is the changeLog of a write the log calls activity.
func (s *Server) logAs(activity string) changeLog {
	return func(before, after *record) (*Activity, error) {
		return s.activityOf(activity, before, after)
	}
}

// activityOf makes the entry of a write from the record before it (nil for
// a create) and after it, with extra changes besides the record's fields.
// An update that changes nothing is not logged.
func (s *Server) activityOf(activity string, before, after *record, extra ...activityChange) (*Activity, error) {
	p := s.catalog.Load().get(after.Plugin)
	var changes []activityChange
	if before != nil {
		changes = append(fieldChanges(before, after, p), extra...)
		if activity == activityUpdated && len(changes) == 0 {
			return nil, nil
		}
	}
	detail := activityDetail{Name: after.Name, Changes: changes}
	if p != nil {
		detail.Name = after.shownName(p)
	}
	raw, err := marshalJSON(detail)
	if err != nil {
		return nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	return &Activity{ID: id.String(), Project: after.Team, ConfigID: after.ID, Activity: activity,
		Detail: raw, At: time.Now().UTC()}, nil
}

// fieldChanges lists the writable fields that differ between before and
// after, config with its secret values masked.
func fieldChanges(before, after *record, p *catalogEntry) []activityChange {
	var out []activityChange
	add := func(field string, b, a any) {
		out = append(out, activityChange{Type: activityScope, Action: "changed", Field: field, Before: b, After: a})
	}
	if before.Enabled != after.Enabled {
		add("enabled", before.Enabled, after.Enabled)
	}
	if before.Order != after.Order {
		add("order", before.Order, after.Order)
	}
	if !sameText(before.Name, after.Name) {
		add("name", before.Name, after.Name)
	}
	if !sameText(before.Description, after.Description) {
		add("description", before.Description, after.Description)
	}
	if before.Deleted != after.Deleted {
		add("deleted", before.Deleted, after.Deleted)
	}
	if !bytes.Equal(before.Filters, after.Filters) {
		add("filters", before.Filters, after.Filters)
	}
	if !bytes.Equal(before.Config, after.Config) {
		var secrets []string
		if p != nil {
			secrets = p.secrets
		}
		add("config", maskSecrets(before.Config, secrets), maskSecrets(after.Config, secrets))
	}
	return out
}

func sameText(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// Activity returns the change log of config configID in project, newest
// first: every create (generation 1), change, delete and migrate, whatever
// the generation was.
func (s *Server) Activity(project, configID int64) ([]Activity, error) {
	entries, _, err := s.store.activityPage(context.Background(), project, configID, -1, 0)
	return entries, err
}

// activityView is an entry as PostHog's activity API answers it.
type activityView struct {
	ID        string          `json:"id"`
	User      *struct{}       `json:"user"`
	Activity  string          `json:"activity"`
	Scope     string          `json:"scope"`
	ItemID    string          `json:"item_id"`
	Detail    json.RawMessage `json:"detail"`
	CreatedAt string          `json:"created_at"`
}

// activity answers the config's change log, newest first, in pages of
// limit and offset like the lists.
func (s *Server) activity(req *request) *apiError {
	rec, e := s.findInCollection(req)
	if e != nil {
		return e
	}
	limit, offset := pageWindow(req.r)
	entries, count, err := s.store.activityPage(req.ctx, req.project, rec.ID, limit, offset)
	if err != nil {
		return s.internal(req, err)
	}
	page := struct {
		Next     *string        `json:"next"`
		Previous *string        `json:"previous"`
		Results  []activityView `json:"results"`
	}{Results: make([]activityView, len(entries))}
	page.Next, page.Previous = pageLinks(req.r, count, limit, offset)
	for i, a := range entries {
		page.Results[i] = activityView{ID: a.ID, Activity: a.Activity, Scope: activityScope,
			ItemID: strconv.FormatInt(a.ConfigID, 10), Detail: a.Detail, CreatedAt: formatTime(a.At.UnixMicro())}
	}
	writeJSON(req.w, http.StatusOK, page)
	return nil
}
