package configresource

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const schemaVersion = 1

// The attributes named outside the schema's own literals (the plan's,
// imports', errors'); TestAttributeNames checks that the schema has them.
const (
	idAttribute    = "id"
	timeoutsBlock  = "timeouts"
	settingsSecret = "secret_config_wo" //nolint:gosec // the name of an attribute, not a credential
)

var (
	idPath     = path.Root(idAttribute)
	pluginPath = path.Root("plugin")
)

// writableAttributes are the fields the service accepts: an API error
// naming one is attached to that attribute.
var writableAttributes = []string{"plugin", "enabled", "order", "name", "description", "filters", "config"}

// attrPath maps a service error's attr to an attribute; nested attrs are
// joined with "__" (filters__events__0__type).
func attrPath(attr string) (path.Path, bool) {
	if first, _, _ := strings.Cut(attr, "__"); slices.Contains(writableAttributes, first) {
		return path.Root(first), true
	}
	return path.Empty(), false
}

// Schema implements resource.Resource.
func (r *configResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	k := r.kind
	attrs := map[string]schema.Attribute{
		idAttribute: schema.Int64Attribute{
			Computed:            true,
			MarkdownDescription: "Identifier of the config.",
		},
		"project_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Project of the config: its id or `@current`. Defaults to the provider's " +
				"`project_id`. Another project means another config.",
			Validators: []validator.String{framework.ProjectIDValidator()},
		},
		"plugin": schema.Int64Attribute{
			Required: true,
			MarkdownDescription: fmt.Sprintf("Identifier of the %s plugin; the data source `%s` finds it by "+
				"name. Another plugin means another config.", k.PluginNoun,
				framework.ProviderTypeName+k.TypeSuffix("plugins")),
			Validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		"enabled": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(false),
			MarkdownDescription: "Whether the config runs. Defaults to `false`: set it on an imported config " +
				"that runs, or the apply turns it off.",
		},
		"order": schema.Int64Attribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Position of the config among the project's configs, lowest first. Left out, " +
				"it is not managed: an order set in PostHog or by an order resource is kept.",
			Validators: []validator.Int64{int64validator.Between(math.MinInt32, math.MaxInt32)},
		},
		"created_at": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the config was created (ISO 8601, UTC).",
		},
		"updated_at": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the config was last changed (ISO 8601, UTC).",
		},
		"filters": filtersAttribute(),
	}
	maps.Copy(attrs, textAttributes())
	maps.Copy(attrs, settingsAttributes())
	resp.Schema = schema.Schema{
		Version: schemaVersion,
		MarkdownDescription: fmt.Sprintf("Manages a %[1]s: one %[2]s plugin set up in a project, with its "+
			"settings, enabled flag, order, name and description.", k.Noun, k.PluginNoun),
		Attributes: attrs,
		Blocks: map[string]schema.Block{
			timeoutsBlock: timeouts.Block(ctx, timeouts.Opts{
				Create: true, Read: true, Update: true, Delete: true,
				CreateDescription: timeoutDescription("a create", framework.DefaultWriteTimeout),
				ReadDescription:   timeoutDescription("a refresh", framework.DefaultReadTimeout),
				UpdateDescription: timeoutDescription("an update", framework.DefaultWriteTimeout),
				DeleteDescription: timeoutDescription("a destroy", framework.DefaultWriteTimeout),
			}),
		},
	}
}

func timeoutDescription(operation string, def time.Duration) string {
	return fmt.Sprintf("Time limit of %s, retries included. Defaults to %d minutes.",
		operation, int(def.Minutes()))
}

// IdentitySchema implements resource.ResourceWithIdentity (Terraform 1.12+).
func (r *configResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       `Project of the config: a project id or "@current". Defaults to the provider's project_id on import.`,
			},
			"id": identityschema.Int64Attribute{
				RequiredForImport: true,
				Description:       "Identifier of the config.",
			},
		},
	}
}

// Model is the config resource's model.
type Model struct {
	RecordModel
	SecretSettings        types.String   `tfsdk:"secret_config_wo"`
	SecretSettingsVersion types.Int64    `tfsdk:"secret_config_wo_version"`
	Timeouts              timeouts.Value `tfsdk:"timeouts"`
}

// identityModel is the config resource's identity (Terraform 1.12+).
type identityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	ID        types.Int64  `tfsdk:"id"`
}

// sameArguments reports whether a and b agree on every argument the
// service stores (another project_id is a replacement).
func sameArguments(a, b *RecordModel) bool {
	return a.Plugin.Equal(b.Plugin) &&
		a.Enabled.Equal(b.Enabled) && a.Order.Equal(b.Order) &&
		a.Name.Equal(b.Name) && a.Description.Equal(b.Description) &&
		(a.Filters.Equal(b.Filters) || a.Filters.FiltersNothing() && b.Filters.FiltersNothing()) &&
		a.Settings.Equal(b.Settings)
}

// UpgradeState implements resource.ResourceWithUpgradeState; the plugin
// facts come with the next read.
func (r *configResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("config", dropRemovedInVersion1)}
}

// dropRemovedInVersion1 turns version 0 attributes into version 1's: those
// that describe the plugin, change on their own or never change, go.
func dropRemovedInVersion1(attrs map[string]json.RawMessage) {
	for _, name := range []string{"plugin_info", "delivery_rate_24h", "error", "deleted", "team_id"} {
		delete(attrs, name)
	}
}

// GeneratedConfig returns cfg, the configuration the framework generated
// from the state of a resource of type typeName (`terraform plan
// -generate-config-out`, Terraform 1.14+), with a config's order left out:
// the imported configs keep the order the service holds, and an order
// resource beside them never fights it. The framework (v1.19) has no hook,
// so package main rewrites its answer.
func GeneratedConfig(ctx context.Context, typeName string, cfg *tfprotov6.DynamicValue) (*tfprotov6.DynamicValue, error) {
	kinds := framework.Kinds()
	i := slices.IndexFunc(kinds, func(k framework.Kind) bool { return k.ConfigTypeName() == typeName })
	if i < 0 || cfg == nil {
		return cfg, nil
	}
	var s resource.SchemaResponse
	New(kinds[i])().Schema(ctx, resource.SchemaRequest{}, &s)
	typ := s.Schema.Type().TerraformType(ctx)
	v, err := cfg.Unmarshal(typ)
	if err != nil {
		return cfg, fmt.Errorf("reading the generated configuration of %s: %w", typeName, err)
	}
	attrs := framework.RawAttributes(v)
	if attrs == nil {
		return cfg, nil
	}
	attrs["order"] = tftypes.NewValue(attrs["order"].Type(), nil)
	out, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		return cfg, fmt.Errorf("writing the generated configuration of %s: %w", typeName, err)
	}
	return &out, nil
}
