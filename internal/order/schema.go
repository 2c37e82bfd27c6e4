package order

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

type model struct {
	ID          types.String   `tfsdk:"id"`
	ProjectID   types.String   `tfsdk:"project_id"`
	ConfigIDs   types.List     `tfsdk:"config_ids"`
	Unlisted    types.String   `tfsdk:"unlisted_configs"`
	UnlistedIDs types.List     `tfsdk:"unlisted_config_ids"`
	Orders      types.Map      `tfsdk:"orders"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

type identityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
}

// IdentitySchema implements resource.ResourceWithIdentity: one per project.
func (r *orderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       `Project whose configs are ordered: a project id or "@current". Defaults to the provider's project_id on import.`,
			},
		},
	}
}

// Schema implements resource.Resource.
func (r *orderResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	k := r.kind
	resp.Schema = schema.Schema{
		Version: 1,
		MarkdownDescription: fmt.Sprintf("Sets the order in which a project's %[1]ss run: `config_ids` "+
			"lists them, first runs first.\n\n"+
			"**Configs you do not list**, such as one added in the PostHog UI, never show as a change of "+
			"`config_ids`; `unlisted_config_ids` shows them. With `unlisted_configs = \"last\"`, the default, "+
			"they run after the listed configs: one that is not there yet shows in the next plan as its new "+
			"place in `orders`, and one apply moves it. With `unlisted_configs = \"keep\"` they stay where "+
			"they are and the plan stays empty.\n\n"+
			"**Leave `order` unset on `%[2]s` resources**: a config that sets `order` and this resource would "+
			"move it back and forth. Configuration that `terraform query` generates leaves it unset.",
			k.Noun, k.ConfigTypeName()),
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The project id: there is one order per collection and project.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"project_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Project whose configs are ordered: a project id or `@current`. Defaults to " +
					"the provider's `project_id`. Another project replaces the resource; the same project written " +
					"the other way (`@current` for its id, or back) does not.",
				Validators:    []validator.String{framework.ProjectIDValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"config_ids": schema.ListAttribute{
				ElementType: types.Int64Type,
				Required:    true,
				MarkdownDescription: fmt.Sprintf("Ids of the project's %ss, first runs first. Disabled "+
					"configs too, to keep their place.", k.Noun),
				Validators: []validator.List{
					listvalidator.UniqueValues(),
					listvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
				},
			},
			"unlisted_configs": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(unlistedLast),
				MarkdownDescription: fmt.Sprintf("What happens to the %ss `config_ids` leaves out: `last` "+
					"(the default) runs them after the listed ones, keeping their sequence among themselves; "+
					"`keep` leaves them where they are.", k.Noun),
				Validators: []validator.String{stringvalidator.OneOf(unlistedLast, unlistedKeep)},
			},
			"unlisted_config_ids": schema.ListAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: fmt.Sprintf("The project's %ss that `config_ids` leaves out, in the order "+
					"they run.", k.Noun),
			},
			"orders": schema.MapAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: "The `order` of each config of `config_ids` and `unlisted_config_ids`, by " +
					"config id.",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true}),
		},
	}
}

var _ resource.ResourceWithUpgradeState = (*orderResource)(nil)

// UpgradeState implements resource.ResourceWithUpgradeState: version 0
// did "last" with unlisted configs, and listed every config it knew.
func (r *orderResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: framework.JSONStateUpgrader("order", func(attrs map[string]json.RawMessage) {
		attrs["unlisted_configs"] = json.RawMessage(`"` + unlistedLast + `"`)
		attrs["unlisted_config_ids"] = json.RawMessage(`[]`)
	})}
}
