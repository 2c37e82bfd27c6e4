package configresource

import (
	"encoding/json"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func TestMadeBy(t *testing.T) {
	t.Parallel()
	name := "n"
	rec := &client.Record{Plugin: 1, Order: 2, Enabled: true, Name: &name, Filters: json.RawMessage(`{"events":[{"type":"events","properties":[]}]}`),
		Settings: json.RawMessage(`{"locale":"en","api_key":"` + SecretMask + `"}`)}
	base := client.RecordInput{Plugin: client.Some(int64(1)), Order: client.Some(int64(2)), Enabled: client.Some(true),
		Name: client.Some(" n "), Filters: client.Some(json.RawMessage(`{"events":[{"type":"events"}],"other":1}`))}
	for _, tc := range []struct {
		name   string
		change func(*client.RecordInput, *client.Record)
		want   bool
	}{
		{"same (service-normalised filters, trimmed name)", func(*client.RecordInput, *client.Record) {}, true},
		{"config with a masked secret", func(in *client.RecordInput, _ *client.Record) {
			in.Settings = client.Some(json.RawMessage(`{"locale":"en","api_key":"s3cret"}`))
		}, true},
		{"other config value", func(in *client.RecordInput, _ *client.Record) {
			in.Settings = client.Some(json.RawMessage(`{"locale":"de"}`))
		}, false},
		{"config sent, none stored (its PATCH cut off)", func(in *client.RecordInput, r *client.Record) {
			in.Settings, r.Settings = client.Some(json.RawMessage(`{"locale":"de"}`)), json.RawMessage(`{}`)
		}, true},
		{"deleted", func(_ *client.RecordInput, r *client.Record) { r.Deleted = true }, false},
		{"other plugin", func(in *client.RecordInput, _ *client.Record) { in.Plugin = client.Some(int64(2)) }, false},
		{"enabled left out", func(in *client.RecordInput, _ *client.Record) { in.Enabled = client.Opt[bool]{} }, false},
		{"other order", func(in *client.RecordInput, _ *client.Record) { in.Order = client.Some(int64(1)) }, false},
		{"other name", func(in *client.RecordInput, _ *client.Record) { in.Name = client.Some("m") }, false},
		{"name with Unicode spaces Python strips", func(in *client.RecordInput, _ *client.Record) {
			in.Name = client.Some("\u3000n\u001c\n")
		}, true},
		{"a blank name: left to matchesFallback", func(in *client.RecordInput, r *client.Record) {
			in.Name, r.Name = client.Some(" \n"), nil
		}, true},
		{"description sent, none stored", func(in *client.RecordInput, _ *client.Record) { in.Description = client.Some("d") }, false},
		{"filters left out", func(in *client.RecordInput, _ *client.Record) { in.Filters = client.Opt[json.RawMessage]{} }, false},
		{"other filters", func(in *client.RecordInput, _ *client.Record) {
			in.Filters = client.Some(json.RawMessage(`{"actions":[{"type":"events"}]}`))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, r := base, *rec
			tc.change(&in, &r)
			if got := madeBy(&r, in); got != tc.want {
				t.Errorf("madeBy = %v, want %v", got, tc.want)
			}
		})
	}
	// A name left out must be the plugin's.
	info := json.RawMessage(`{"name":"GeoIP","description":"Adds location"}`)
	plugin, desc := "GeoIP", "Adds location"
	in := client.RecordInput{Plugin: client.Some(int64(1))}
	if !matchesFallback(&client.Record{Name: &plugin, Description: &desc, PluginInfo: info}, in) {
		t.Error("the plugin's name does not match a name left out")
	}
	if matchesFallback(&client.Record{Name: &name, Description: &desc, PluginInfo: info}, in) {
		t.Error("a name of its own matches a name left out")
	}
	// A blank name is the plugin's as well; an empty one always is, a
	// plugin whose own is "" or null shows nothing else.
	blank := client.RecordInput{Plugin: client.Some(int64(1)), Name: client.Some("  ")}
	if !matchesFallback(&client.Record{Name: &plugin, Description: &desc, PluginInfo: info}, blank) {
		t.Error("the plugin's name does not match a blank name")
	}
	empty := ""
	nameless := json.RawMessage(`{"name":null,"description":""}`)
	if !matchesFallback(&client.Record{Name: nil, Description: &empty, PluginInfo: nameless}, in) {
		t.Error("the plugin's null name and empty description do not match what was left out")
	}
	if matchesFallback(&client.Record{Name: &name, Description: &empty, PluginInfo: nameless}, blank) {
		t.Error("a name of its own matches a blank name of a plugin without a name")
	}
}
