package configresource

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func body(t *testing.T, in client.RecordInput) string {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func createBody(t *testing.T, c *RecordModel) string {
	t.Helper()
	in, err := createInput(c, types.StringNull())
	if err != nil {
		t.Fatal(err)
	}
	return body(t, in)
}

func TestCreateInput(t *testing.T) {
	t.Parallel()
	minimal := RecordModel{
		Plugin: types.Int64Value(3), Enabled: types.BoolValue(false), Order: types.Int64Unknown(),
		Name: types.StringUnknown(), Description: types.StringUnknown(), Filters: NewFiltersNull(),
	}
	if got, want := createBody(t, &minimal), `{"plugin":3,"enabled":false,"order":0}`; got != want {
		t.Errorf("minimal create body %s, want %s", got, want)
	}

	full := RecordModel{
		Plugin: types.Int64Value(1), Enabled: types.BoolValue(true), Order: types.Int64Value(7),
		Name: types.StringValue("n"), Description: types.StringValue("d"),
		Filters: NewFiltersValue(`{"events":[{"type":"events","id":"$pageview"}]}`),
	}
	want := `{"plugin":1,"enabled":true,"order":7,"name":"n","description":"d","filters":{"events":[{"type":"events","id":"$pageview"}]}}`
	if got := createBody(t, &full); got != want {
		t.Errorf("full create body %s, want %s", got, want)
	}
}

func TestUpdateInput(t *testing.T) {
	t.Parallel()
	state := RecordModel{
		Plugin: types.Int64Value(1), Enabled: types.BoolValue(true), Order: types.Int64Value(1),
		Name: types.StringValue("custom"), Description: types.StringValue("plugin description"),
		Filters: NewFiltersValue(`{"events":[{"id":"a","type":"events"}]}`),
	}
	configured := func(m RecordModel) RecordModel { return m }

	tests := map[string]struct {
		plan, config RecordModel
		state        *RecordModel // the state above when nil
		want         string
		changed      bool
	}{
		"nothing": {
			plan: state, config: configured(state), want: `{}`,
		},
		"normalised filters are no change": {
			plan: func() RecordModel {
				m := state
				m.Filters = NewFiltersValue(`{"events":[{"type":"events","id":"a","properties":[]}]}`)
				return m
			}(),
			config: state, want: `{}`,
		},
		"every writable field": {
			plan: RecordModel{
				Plugin: types.Int64Value(1), Enabled: types.BoolValue(false), Order: types.Int64Value(5),
				Name: types.StringValue("other"), Description: types.StringValue("mine"),
				Filters: NewFiltersValue(`{"actions":[{"id":1,"type":"actions"}]}`),
			},
			config: RecordModel{
				Name: types.StringValue("other"), Description: types.StringValue("mine"),
			},
			want:    `{"enabled":false,"order":5,"name":"other","description":"mine","filters":{"actions":[{"id":1,"type":"actions"}]}}`,
			changed: true,
		},
		"removed name is sent as null, removed filters as {}": {
			plan: func() RecordModel {
				m := state
				m.Name = types.StringValue("GeoIP") // the plugin's, planned by pluginFallback
				m.Filters = NewFiltersNull()
				return m
			}(),
			config:  RecordModel{Name: types.StringNull(), Description: types.StringNull()},
			want:    `{"name":null,"filters":{}}`,
			changed: true,
		},
		"filters that filter nothing are not cleared again": {
			plan: func() RecordModel {
				m := state
				m.Filters = NewFiltersNull()
				return m
			}(),
			state: func() *RecordModel {
				m := state
				m.Filters = NewFiltersValue(`{"note":"dropped"}`)
				return &m
			}(),
			config: RecordModel{Name: types.StringValue("custom"), Description: types.StringValue("plugin description")},
			want:   `{}`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prior := &state
			if tt.state != nil {
				prior = tt.state
			}
			in, changed := updateInput(&tt.plan, prior, &tt.config)
			if changed != tt.changed {
				t.Errorf("changed = %v, want %v", changed, tt.changed)
			}
			if got := body(t, in); got != tt.want {
				t.Errorf("body %s, want %s", got, tt.want)
			}
		})
	}
}
