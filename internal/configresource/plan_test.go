package configresource

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

func TestPlanFilters(t *testing.T) {
	t.Parallel()
	stored := NewFiltersValue(`{"events":[{"id":"$pageview","type":"events","properties":[]}]}`)
	tests := map[string]struct {
		configured      types.String
		proposed, state FiltersValue
		want            FiltersValue
	}{
		"left out: none, filters set elsewhere removed": {
			configured: types.StringNull(), proposed: stored, state: stored, want: NewFiltersNull(),
		},
		"stored the same way: the state's text": {
			configured: types.StringValue(`{"events":[{"type":"events","id":"$pageview"}],"note":"dropped"}`),
			state:      stored, want: stored,
		},
		"changed: as configured": {
			configured: types.StringValue(`{"filter_test_accounts":true}`), state: stored,
			want: NewFiltersValue(`{"filter_test_accounts":true}`),
		},
		"not known yet: the proposed value": {
			configured: types.StringUnknown(), proposed: FiltersValue{StringValue: types.StringUnknown()},
			state: stored, want: FiltersValue{StringValue: types.StringUnknown()},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := planFilters(tt.configured, tt.proposed, tt.state); !got.Equal(tt.want) {
				t.Errorf("planned %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlanUpdateLeftOut: what an update plans for the values a
// configuration leaves out.
func TestPlanUpdateLeftOut(t *testing.T) {
	t.Parallel()
	state := RecordModel{
		ID: types.Int64Value(7), ProjectID: types.StringValue("1"), Plugin: types.Int64Value(1),
		Enabled: types.BoolValue(true), Order: types.Int64Value(4),
		Name: types.StringValue("Mine"), Description: types.StringValue("GeoIP's own"),
		CreatedAt: types.StringValue("2026-01-01T00:00:00Z"), UpdatedAt: types.StringValue("2026-01-02T00:00:00Z"),
	}
	// The framework proposes unknown for computed values left out once
	// anything changes (here: enabled).
	proposed := RecordModel{
		ID: types.Int64Unknown(), ProjectID: types.StringValue("1"), Plugin: types.Int64Value(1),
		Enabled: types.BoolValue(false), Order: types.Int64Unknown(),
		Name: types.StringUnknown(), Description: types.StringUnknown(),
		CreatedAt: types.StringUnknown(), UpdatedAt: types.StringUnknown(),
	}
	cfg := configured{secret: types.StringNull()} // everything left out

	for name, tt := range map[string]struct {
		facts             pluginFacts
		known             bool
		name, description types.String
	}{
		"name set before, description the plugin's: the name becomes the plugin's": {
			facts: pluginFacts{DescriptionFromPlugin: true}, known: true,
			name: types.StringUnknown(), description: types.StringValue("GeoIP's own"),
		},
		"both the plugin's: kept": {
			facts: pluginFacts{NameFromPlugin: true, DescriptionFromPlugin: true}, known: true,
			name: types.StringValue("Mine"), description: types.StringValue("GeoIP's own"),
		},
		"no facts (a state just upgraded, not refreshed): kept": {
			name: types.StringValue("Mine"), description: types.StringValue("GeoIP's own"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			plan := proposed
			planUpdate(&plan, &state, &cfg, tt.facts, tt.known)
			if !plan.Name.Equal(tt.name) || !plan.Description.Equal(tt.description) {
				t.Errorf("name %v, description %v; want %v, %v", plan.Name, plan.Description, tt.name, tt.description)
			}
			if !plan.ID.Equal(state.ID) || !plan.CreatedAt.Equal(state.CreatedAt) || !plan.Order.Equal(state.Order) {
				t.Errorf("id %v, created_at %v, order %v: want the state's", plan.ID, plan.CreatedAt, plan.Order)
			}
			if !plan.Filters.IsNull() {
				t.Errorf("filters %v, want null", plan.Filters)
			}
		})
	}
}

// TestNeedsPlanning: a plan equal to the state returns at once unless the
// configuration leaves out something that must change, or sets secrets.
func TestNeedsPlanning(t *testing.T) {
	t.Parallel()
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	filters := `{"events":[{"type":"events","id":"$pageview"}]}`
	state := map[string]tftypes.Value{"name": str("Mine"), "description": str("Desc"), "filters": str(filters)}
	all := configured{RecordModel: RecordModel{Name: types.StringValue("Mine"), Description: types.StringValue("Desc"),
		Filters: NewFiltersValue(filters)}, secret: types.StringNull()}
	for name, tt := range map[string]struct {
		cfg   configured
		state map[string]tftypes.Value // the state above when nil
		facts pluginFacts
		known bool
		want  bool
	}{
		"everything configured":                  {cfg: all, known: true},
		"secrets configured":                     {cfg: with(all, func(c *configured) { c.secret = types.StringValue(`{}`) }), want: true},
		"name left out, the plugin's":            {cfg: with(all, func(c *configured) { c.Name = types.StringNull() }), facts: pluginFacts{NameFromPlugin: true}, known: true},
		"name left out, not the plugin's":        {cfg: with(all, func(c *configured) { c.Name = types.StringNull() }), known: true, want: true},
		"name left out, no facts":                {cfg: with(all, func(c *configured) { c.Name = types.StringNull() })},
		"description left out, not the plugin's": {cfg: with(all, func(c *configured) { c.Description = types.StringNull() }), known: true, want: true},
		"name left out after a configured blank": {cfg: with(all, func(c *configured) { c.Name = types.StringNull() }),
			facts: pluginFacts{NameFromPlugin: true, BlankName: true}, known: true, want: true},
		"filters left out, some in state": {cfg: with(all, func(c *configured) { c.Filters = NewFiltersNull() }), want: true},
		"filters left out, none in state": {cfg: with(all, func(c *configured) { c.Filters = NewFiltersNull() }), state: map[string]tftypes.Value{"filters": str(`{}`)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			state := state
			if tt.state != nil {
				state = tt.state
			}
			prior := configuredOf(object(state)).RecordModel
			if got := tt.cfg.needsPlanning(&prior, tt.facts, tt.known); got != tt.want {
				t.Errorf("needsPlanning = %v, want %v", got, tt.want)
			}
		})
	}
}

func with(c configured, change func(*configured)) configured {
	change(&c)
	return c
}

func TestPluginFactsOf(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	info := json.RawMessage(`{"name":"GeoIP","description":"Adds location",
		"config_schema":[{"key":"api_key","secret":true},{"key":"locale"}]}`)
	keys := []string{"api_key"}
	prior := pluginFacts{SecretKeys: &[]string{"old"}, NameFromPlugin: true, DescriptionFromPlugin: true}
	none := json.RawMessage(`null`) // filters that are there: a service that makes configs

	for name, tt := range map[string]struct {
		rec       client.Record
		noCreates bool
		want      pluginFacts
	}{
		"own name, the plugin's description": {
			rec:  client.Record{Name: str("Mine"), Description: str("Adds location"), PluginInfo: info, Filters: none},
			want: pluginFacts{SecretKeys: &keys, DescriptionFromPlugin: true},
		},
		"a list page (no plugin_info): the prior facts": {
			rec: client.Record{Name: str("Mine"), PluginInfo: json.RawMessage(`null`), Filters: none}, want: prior,
		},
		"a record without filters (versions C to E: nothing told)": {
			rec:  client.Record{Name: str("Mine"), Description: str("Adds location"), PluginInfo: info},
			want: pluginFacts{SecretKeys: &keys, DescriptionFromPlugin: true},
		},
		"a service known to make no configs": {
			rec: client.Record{Name: str("Mine"), Description: str("Adds location"), PluginInfo: info}, noCreates: true,
			want: pluginFacts{SecretKeys: &keys, DescriptionFromPlugin: true, NoCreates: true},
		},
		"plugin_info without a config_schema: the prior secret keys": {
			rec:  client.Record{Name: str("GeoIP"), Description: str("y"), PluginInfo: json.RawMessage(`{"name":"GeoIP","description":"x"}`), Filters: none},
			want: pluginFacts{SecretKeys: prior.SecretKeys, NameFromPlugin: true},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := pluginFactsOf(&tt.rec, prior, tt.noCreates); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("facts %+v, want %+v", got, tt.want)
			}
		})
	}
}

// privateData is private state in a map, as the framework keeps it.
type privateData map[string][]byte

func (p privateData) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p privateData) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	p[key] = value
	return nil
}

func TestPluginFactsInPrivateState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := privateData{}
	if _, known := readPrivate[pluginFacts](ctx, p, pluginFactsKey); known {
		t.Fatal("facts known in an empty private state")
	}
	none := []string{}
	for _, f := range []pluginFacts{
		{SecretKeys: &none}, // known: no secret keys
		{SecretKeys: &[]string{"a", "b"}, NameFromPlugin: true}, // some
		{DescriptionFromPlugin: true},                           // secret keys not known
	} {
		if diags := writePrivate(ctx, p, pluginFactsKey, f); diags.HasError() {
			t.Fatal(diags)
		}
		got, known := readPrivate[pluginFacts](ctx, p, pluginFactsKey)
		if !known || !reflect.DeepEqual(got, f) {
			t.Errorf("read back %+v (%v), stored %+v (%s)", got, known, f, p[pluginFactsKey])
		}
		if secrets, ok := got.secretKeys(); ok != (f.SecretKeys != nil) || len(secrets) != len(ptrValue(f.SecretKeys)) {
			t.Errorf("secret keys %v (%v) of %+v", secrets, ok, f)
		}
	}
}

func ptrValue(p *[]string) []string {
	if p == nil {
		return nil
	}
	return *p
}
