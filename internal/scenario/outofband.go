package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
)

// ChangeOutOfBand changes a config on the service behind Terraform's back,
// as colleagues in the UI do: its text, flags, order, filters, all its
// settings at once, one setting (added, changed or removed), one secret
// (set, changed or cleared), a DELETE (which disables), or a soft delete.
func (m *Machine) ChangeOutOfBand(t *rapid.T) {
	var candidates []held
	for _, h := range m.slots() {
		if h.s.inst.Exists() {
			candidates = append(candidates, h)
		}
	}
	if len(candidates) == 0 {
		t.Skip("nothing to change")
	}
	h := candidates[rapid.IntRange(0, len(candidates)-1).Draw(t, "resource")]
	id, project, _ := idOf(h.s.inst)
	project = m.projectOf(project)
	ctx := context.Background()
	coll := Collection(h.s.kind)
	change := rapid.SampledFrom([]string{"name", "description", "enabled", "order", "filters", "settings", "setting",
		"secret", "disable", "delete"}).Draw(t, "change")
	var err error
	what := change
	switch change {
	case "disable":
		err = m.env.API.Delete(ctx, project, coll, id)
	case "delete":
		_, err = m.env.API.Update(ctx, project, coll, id, client.RecordInput{Deleted: client.Some(true)})
	case "setting", "secret":
		plugin, _ := intAttr(h.s.inst.Attrs()["plugin"])
		if change == "secret" && len(m.env.Catalog.SecretKeys(plugin)) == 0 {
			t.Skip("the plugin has no secret setting")
		}
		stored, serr := m.storedSettings(ctx, project, coll, id)
		if serr != nil {
			m.fail(t, "reading config %d: %v", id, serr)
		}
		edit := settingEditGen(m.env.Catalog, plugin, stored, change == "secret").Draw(t, change)
		what = edit.String()
		form := edit.Form(stored, m.env.Catalog.SecretKeys(plugin))
		_, err = m.env.API.Update(ctx, project, coll, id, client.RecordInput{Settings: client.Some(form)})
	default:
		in := outOfBandGen(m.env.Catalog, change, h.s.config).Draw(t, change)
		what = describeInput(in)
		_, err = m.env.API.Update(ctx, project, coll, id, in)
	}
	m.step("change %s on the service: %s (%v)", h, what, err)
	stats.Changes.Add(1)
	h.s.converged, h.s.drift = false, true
}

// storedSettings reads a config's settings: from the local API's store,
// or as the service answers them (secret values masked).
func (m *Machine) storedSettings(ctx context.Context, project string, coll client.Collection, id int64) (map[string]json.RawMessage, error) {
	var raw json.RawMessage
	if m.env.Local != nil {
		p, err := strconv.ParseInt(m.env.ProjectID, 10, 64) // the project is one, however named
		if err != nil {
			return nil, err
		}
		if raw, err = m.env.Local.StoredConfig(p, id); err != nil {
			return nil, err
		}
	} else {
		rec, err := m.env.API.Get(ctx, project, coll, id)
		if err != nil {
			return nil, err
		}
		raw = rec.Settings
	}
	return object(raw), nil
}

// SettingEdit is one setting changed as the service's UI changes it: Key
// set to Value (nil: removed), as a secret or not.
type SettingEdit struct {
	Key    string
	Value  json.RawMessage
	Secret bool
}

func (e SettingEdit) String() string {
	what := "setting"
	if e.Secret {
		what = "secret"
	}
	if e.Value == nil {
		return fmt.Sprintf("%s %s removed", what, e.Key)
	}
	return fmt.Sprintf("%s %s = %s", what, e.Key, e.Value)
}

// Form returns the settings the UI sends for e, on a config whose settings
// are stored as stored and whose plugin marks secrets secret: every
// non-secret setting again as stored, with e's key set or removed; a
// secret key set beside them (the other secret keys are left out, which
// keeps them).
func (e SettingEdit) Form(stored map[string]json.RawMessage, secrets []string) json.RawMessage {
	form := map[string]json.RawMessage{}
	for k, v := range stored {
		if !slices.Contains(secrets, k) && !configresource.IsMasked(v) {
			form[k] = v
		}
	}
	if e.Value == nil {
		delete(form, e.Key)
	} else {
		form[e.Key] = e.Value
	}
	b, err := json.Marshal(form)
	if err != nil {
		panic(err) // decoded JSON values encode again
	}
	return b
}

// settingEditGen draws an edit of one setting of a config of plugin whose
// settings are stored (nil: not known): a non-secret key added, changed
// or removed, or (secret) one of the plugin's secret keys, which it must
// have, set, changed or cleared ("", which the service stores).
func settingEditGen(cat *Catalog, plugin int64, stored map[string]json.RawMessage, secret bool) *rapid.Generator[SettingEdit] {
	return rapid.Custom(func(t *rapid.T) SettingEdit {
		secrets := cat.SecretKeys(plugin)
		if secret {
			k := rapid.SampledFrom(secrets).Draw(t, "secret key")
			v := rapid.SampledFrom([]string{"rotated", "ünïcode rotated", ""}).Draw(t, "secret value")
			return SettingEdit{Key: k, Value: json.RawMessage(jsonText(v)), Secret: true}
		}
		keys := append(slices.Sorted(maps.Keys(stored)), append(slices.Clone(settingKeys), "extra", "other")...)
		keys = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(keys))),
			func(k string) bool { return slices.Contains(secrets, k) })
		k := rapid.SampledFrom(keys).Draw(t, "key")
		if _, set := stored[k]; (set || stored == nil) && rapid.Bool().Draw(t, "remove") {
			return SettingEdit{Key: k}
		}
		return SettingEdit{Key: k, Value: json.RawMessage(jsonText(jsonValueGen(1).Draw(t, "value")))}
	})
}

// describeInput renders the fields of a PATCH, for the steps.
func describeInput(in client.RecordInput) string {
	b, err := json.Marshal(in)
	if err != nil {
		return err.Error()
	}
	if cfg, ok := in.Settings.Get(); ok {
		return string(b) + " config " + string(cfg)
	}
	return string(b)
}

// outOfBandGen is a PATCH made on the service behind Terraform's back:
// change names one field ("name", "description", "enabled", "order",
// "filters", "settings"); cfg is the resource's configuration
// (nil when none), whose plugin the settings are drawn for.
func outOfBandGen(cat *Catalog, change string, cfg *Config) *rapid.Generator[client.RecordInput] {
	return rapid.Custom(func(t *rapid.T) client.RecordInput {
		var in client.RecordInput
		switch change {
		case "name":
			in.Name = client.Some(textGen(400).Draw(t, "name"))
		case "description":
			in.Description = client.Some(textGen(1000).Draw(t, "description"))
		case "enabled":
			in.Enabled = client.Some(rapid.Bool().Draw(t, "enabled"))
		case "order":
			in.Order = client.Some(rapid.Int64Range(-5, 5).Draw(t, "order"))
		case "filters":
			in.Filters = client.Some(json.RawMessage(filtersGen.Draw(t, "filters")))
		case "settings":
			plugin := cat.Plugins[0].ID
			if cfg != nil {
				plugin = cfg.Plugin
			}
			in.Settings = client.Some(json.RawMessage(settingsGen(cat, plugin).Draw(t, "config")))
		}
		return in
	})
}
