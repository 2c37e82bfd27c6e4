package localapi

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// record is a stored plugin config. One table holds both collections: a
// config's collection follows from its plugin's capabilities.
type record struct {
	ID          int64
	Team        int64
	Plugin      int64
	Enabled     bool
	Order       int64
	Name        *string
	Description *string
	Deleted     bool
	Filters     json.RawMessage // nil: null
	Config      json.RawMessage // always a JSON object
	CreatedAt   int64           // Unix microseconds
	UpdatedAt   int64
}

// recordView is a record as the live service answers it, fields in the live
// order.
type recordView struct {
	// ID, CreatedAt and UpdatedAt are null in the answer to a create from
	// version E on, which stores nothing.
	ID         *int64          `json:"id"`
	Plugin     int64           `json:"plugin"`
	Enabled    bool            `json:"enabled"`
	Order      int64           `json:"order"`
	Config     json.RawMessage `json:"config"`
	Error      *string         `json:"error"`
	TeamID     int64           `json:"team_id"`
	PluginInfo json.RawMessage `json:"plugin_info"`
	// DeliveryRate24h is null (no deliveries here), and left out by
	// today's service.
	DeliveryRate24h json.RawMessage `json:"delivery_rate_24h,omitempty"`
	CreatedAt       *string         `json:"created_at"`
	UpdatedAt       *string         `json:"updated_at"`
	Name            *string         `json:"name"`
	Description     *string         `json:"description"`
	Deleted         bool            `json:"deleted"`
	// Filters is left out but in version B, where it points at the
	// value, null included.
	Filters *json.RawMessage `json:"filters,omitempty"`
}

// secretMask replaces the value of a secret config key in every answer.
const secretMask = "**************** POSTHOG SECRET FIELD ****************"

var secretMaskJSON = json.RawMessage(`"` + secretMask + `"`)

// view renders rec as svc answers it. withInfo is false in list pages and
// the rearrange array, where the live service sends plugin_info null. A
// record without an ID is one a create from version E on did not save.
func (rec *record) view(cat *catalog, withInfo bool, svc service) *recordView {
	v := &recordView{
		Plugin:      rec.Plugin,
		Enabled:     rec.Enabled,
		Order:       rec.Order,
		Config:      rec.Config,
		TeamID:      rec.Team,
		Name:        rec.Name,
		Description: rec.Description,
		Deleted:     rec.Deleted,
	}
	if rec.ID != 0 {
		created, updated := formatTime(rec.CreatedAt), formatTime(rec.UpdatedAt)
		v.ID, v.CreatedAt, v.UpdatedAt = &rec.ID, &created, &updated
	}
	if svc.v.hasFilters() {
		v.Filters = &rec.Filters
	}
	if !svc.isToday() {
		v.DeliveryRate24h = json.RawMessage("null")
	}
	if p := cat.get(rec.Plugin); p != nil {
		v.Name, v.Description = rec.shownName(p), rec.shownDescription(p)
		v.Config = maskSecrets(rec.Config, p.secrets)
		if withInfo {
			// Since the service can turn configs into hog functions
			// (migrate, from D on), its plugin_info says whether it can
			// (PluginSerializer's field).
			v.PluginInfo = p.info
			if svc.v.hasMigrate() {
				v.PluginInfo = p.listed
			}
		}
	}
	if len(v.Config) == 0 {
		v.Config = json.RawMessage(`{}`)
	}
	return v
}

// shownName is the name answers show, `name or plugin.name` as the service
// writes it: the record's, or its plugin's (text, "" or null) when the
// record's is empty or null.
func (rec *record) shownName(p *catalogEntry) *string { return orPlugins(rec.Name, p.Name) }

// shownDescription falls back to the plugin's as shownName does.
func (rec *record) shownDescription(p *catalogEntry) *string {
	return orPlugins(rec.Description, p.Description)
}

func orPlugins(own, plugins *string) *string {
	if own == nil || *own == "" {
		return plugins
	}
	return own
}

// deref is the text of a nullable text, "" for null.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// maskSecrets hides secret values that are set (truthy, as the live check
// is); empty or null secrets are shown as they are.
func maskSecrets(cfg json.RawMessage, secrets []string) json.RawMessage {
	if len(secrets) == 0 || len(cfg) == 0 {
		return cfg
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(cfg, &m); err != nil {
		return cfg
	}
	changed := false
	for _, k := range secrets {
		if val, ok := m[k]; ok && python.Truthy(val) {
			m[k] = secretMaskJSON
			changed = true
		}
	}
	if !changed {
		return cfg
	}
	out, err := marshalJSON(m)
	if err != nil {
		return cfg
	}
	return out
}

// formatTime writes ISO 8601 UTC with microseconds.
func formatTime(us int64) string {
	return time.UnixMicro(us).UTC().Format("2006-01-02T15:04:05.000000Z")
}

// sortRecords orders records as the live lists do: by order, then plugin
// (then id, so that equal orders still page stably).
func sortRecords(recs []*record) {
	slices.SortFunc(recs, func(a, b *record) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.Plugin, b.Plugin), cmp.Compare(a.ID, b.ID))
	})
}
