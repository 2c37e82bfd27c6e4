// What the API answers and is sent, typed: config records and their
// create and update bodies, plugins, hog functions.

package client

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"strconv"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Collection names one of the service's two pipeline config collections.
type Collection string

const (
	// Transformations holds configs of plugins whose methods include processEvent.
	Transformations Collection = "pipeline_transformation_configs"
	// ImportApps holds configs of plugins with scheduled tasks.
	ImportApps Collection = "pipeline_import_apps_configs"
)

// other is the collection that is not coll.
func (coll Collection) other() Collection {
	if coll == Transformations {
		return ImportApps
	}
	return Transformations
}

// Record is a pipeline config record as the live service returns it. The
// fields the published schema gets wrong are raw JSON, nil when absent.
type Record struct {
	ID              int64           `json:"id"`
	Plugin          int64           `json:"plugin"`
	Enabled         bool            `json:"enabled"`
	Order           int64           `json:"order"`
	Settings        json.RawMessage `json:"config"`
	Error           json.RawMessage `json:"error"`
	TeamID          int64           `json:"team_id"`
	PluginInfo      json.RawMessage `json:"plugin_info"`
	DeliveryRate24h json.RawMessage `json:"delivery_rate_24h"`
	CreatedAt       string          `json:"created_at"`
	UpdatedAt       string          `json:"updated_at"`
	Name            *string         `json:"name"`
	Description     *string         `json:"description"`
	Deleted         bool            `json:"deleted"`
	Filters         json.RawMessage `json:"filters"`
}

// UnmarshalJSON decodes a record leniently, as python.FlexInt and
// FlexBool read integers and booleans.
func (r *Record) UnmarshalJSON(data []byte) error {
	type plain Record // no methods, so no recursion
	var w struct {
		*plain
		ID      python.FlexInt  `json:"id"`
		Plugin  python.FlexInt  `json:"plugin"`
		Order   python.FlexInt  `json:"order"`
		TeamID  python.FlexInt  `json:"team_id"`
		Enabled python.FlexBool `json:"enabled"`
		Deleted python.FlexBool `json:"deleted"`
	}
	var rec Record
	w.plain = (*plain)(&rec)
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("decoding record: %w", err)
	}
	rec.ID, rec.Plugin, rec.Order, rec.TeamID = int64(w.ID), int64(w.Plugin), int64(w.Order), int64(w.TeamID)
	rec.Enabled, rec.Deleted = bool(w.Enabled), bool(w.Deleted)
	*r = rec
	return nil
}

// FiltersOmitted reports whether the answer had no filters field at all
// (not even null), as every version since mid-August 2024 answers.
func (r *Record) FiltersOmitted() bool { return r.Filters == nil }

// Opt is a request field left out (the zero value), sent as null, or sent
// with a value.
type Opt[T any] struct {
	set   bool
	null  bool
	value T
}

// Some returns a field sent with v.
func Some[T any](v T) Opt[T] { return Opt[T]{set: true, value: v} }

// Null returns a field sent as JSON null.
func Null[T any]() Opt[T] { return Opt[T]{set: true, null: true} }

// IsZero reports whether the field is left out of the request.
func (o Opt[T]) IsZero() bool { return !o.set }

// Get returns the value and whether one is sent (false when left out or null).
func (o Opt[T]) Get() (T, bool) { return o.value, o.set && !o.null }

// MarshalJSON encodes the value, or null.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.set || o.null {
		return []byte("null"), nil
	}
	return json.Marshal(o.value)
}

// RecordInput is the body of a create or update; fields left out are not
// sent. With Settings set it goes as multipart/form-data, the only way the
// live service takes config. Null() filters are refused ({} clears them).
type RecordInput struct {
	Plugin      Opt[int64]           `json:"plugin,omitzero"`
	Enabled     Opt[bool]            `json:"enabled,omitzero"`
	Order       Opt[int64]           `json:"order,omitzero"`
	Name        Opt[string]          `json:"name,omitzero"`
	Description Opt[string]          `json:"description,omitzero"`
	Deleted     Opt[bool]            `json:"deleted,omitzero"`
	Filters     Opt[json.RawMessage] `json:"filters,omitzero"`
	Settings    Opt[json.RawMessage] `json:"-"`
}

// encodeRecordInput returns the body and Content-Type of a create or update
// (see RecordInput).
func encodeRecordInput(in RecordInput) ([]byte, string, error) {
	if in.Filters.set && in.Filters.null {
		return nil, "", errors.New("filters cannot be null: the service refuses it; {} clears filters")
	}
	if v, ok := in.Filters.Get(); ok && !json.Valid(v) {
		return nil, "", errors.New("filters is not valid JSON")
	}
	if v, ok := in.Settings.Get(); ok {
		if _, isObject := python.Object(string(v)); !isObject {
			return nil, "", errors.New("config is not a JSON object")
		}
	}
	if in.Settings.IsZero() {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, "", fmt.Errorf("encoding the request: %w", err)
		}
		return b, contentTypeJSON, nil
	}
	return encodeMultipart(in)
}

func encodeMultipart(in RecordInput) ([]byte, string, error) {
	cfg := "{}" // the service has no null config
	if v, ok := in.Settings.Get(); ok {
		cfg = python.Compact(v)
	}
	filters := Opt[string]{set: in.Filters.set, null: in.Filters.null, value: string(bytes.TrimSpace(in.Filters.value))}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	err := w.WriteField("config", cfg)
	for _, f := range []struct {
		name string
		opt  interface{ formValue() (string, bool) }
	}{
		{"plugin", in.Plugin}, {"enabled", in.Enabled}, {"order", in.Order}, {"name", in.Name},
		{"description", in.Description}, {"deleted", in.Deleted}, {"filters", filters},
	} {
		if v, set := f.opt.formValue(); set && err == nil {
			err = w.WriteField(f.name, v)
		}
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, "", fmt.Errorf("encoding the form: %w", err)
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// formValue is a field's text in a form, "" for null, and whether it is sent.
func (o Opt[T]) formValue() (string, bool) {
	if v, ok := o.Get(); ok {
		return fmt.Sprint(v), true
	}
	return "", o.set
}

// Job is the body of the job action.
type Job struct {
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	Operation string          `json:"operation,omitempty"`
}

// Frontend is the body of the frontend action, whatever its type.
type Frontend struct {
	ContentType string
	Content     string
}

// FormatID renders a record id as it appears in paths and import IDs.
func FormatID(id int64) string { return strconv.FormatInt(id, 10) }

// PluginListing names one of an organization's plugin listings (the notes'
// "Finding a plugin").
type PluginListing string

const (
	// AllPlugins lists every plugin the organization can use.
	AllPlugins PluginListing = "plugins"
	// TransformationPlugins lists the plugins whose configs Transformations holds.
	TransformationPlugins PluginListing = "pipeline_transformations"
	// ImportAppPlugins lists the plugins whose configs ImportApps holds.
	ImportAppPlugins PluginListing = "pipeline_import_apps"
)

// PluginListing returns the listing of the plugins whose configs coll holds.
func (coll Collection) PluginListing() PluginListing {
	return cmp.Or(map[Collection]PluginListing{Transformations: TransformationPlugins, ImportApps: ImportAppPlugins}[coll], AllPlugins)
}

// CurrentOrganization is the address of the API key owner's current
// organization.
const CurrentOrganization = "@current"

// Plugin is a plugin as the plugin listings answer it, read leniently;
// configresource.PluginOf reads the rest from JSON.
type Plugin struct {
	ID                 int64
	Name               *string
	Description        *string
	URL                *string
	PublicJobs         json.RawMessage
	MigrationAvailable *bool           // hog_function_migration_available; nil from a service older than it
	JSON               json.RawMessage // the whole plugin as answered, compact
}

// UnmarshalJSON decodes a plugin leniently; only an answer that is not an
// object, or an id that is not an integer, is an error.
func (p *Plugin) UnmarshalJSON(data []byte) error {
	f, ok := python.Object(string(data))
	if !ok {
		return fmt.Errorf("decoding plugin: not a JSON object: %.40s", data)
	}
	var id python.FlexInt
	if raw, has := f["id"]; has {
		if err := json.Unmarshal(raw, &id); err != nil {
			return fmt.Errorf("decoding plugin: id: %w", err)
		}
	}
	*p = Plugin{
		ID:                 int64(id),
		Name:               lenient[string](f["name"]),
		Description:        lenient[string](f["description"]),
		URL:                lenient[string](f["url"]),
		PublicJobs:         f["public_jobs"],
		MigrationAvailable: (*bool)(lenient[python.FlexBool](f["hog_function_migration_available"])),
		JSON:               json.RawMessage(python.Compact(data)),
	}
	return nil
}

// lenient is a field's value, nil when null, absent or not a T.
func lenient[T any](raw json.RawMessage) *T {
	var v T
	if python.IsNull(raw) || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return &v
}

// The hog function API, read only: what the config data sources need to
// tell a user the way off a config (the notes' "Hog function templates" and
// "The way off"). Writing hog functions is the official provider's.

// HogTemplate is a hog function template as the templates API answers it.
type HogTemplate struct {
	ID           string          `json:"id"`
	Name         *string         `json:"name"`
	Description  *string         `json:"description"`
	Type         string          `json:"type"`
	Status       string          `json:"status"`
	InputsSchema []TemplateInput `json:"inputs_schema"`
	Filters      json.RawMessage `json:"filters"`
}

// TemplateInput is one entry of a template's inputs_schema.
type TemplateInput struct {
	Key      string          `json:"key"`
	Secret   bool            `json:"secret"`
	Required bool            `json:"required"`
	Default  json.RawMessage `json:"default"`
}

// HogFunction is a hog function as the list answers it: what tells which
// config it was made of (its template and execution order).
type HogFunction struct {
	ID             string  `json:"id"`
	Name           *string `json:"name"`
	Type           string  `json:"type"`
	Enabled        bool    `json:"enabled"`
	ExecutionOrder *int64  `json:"execution_order"`
	Template       *struct {
		ID string `json:"id"`
	} `json:"template"`
}

// TemplateID is the id of the template f was made from, "" when none.
func (f *HogFunction) TemplateID() string {
	if f.Template == nil {
		return ""
	}
	return f.Template.ID
}
