package order

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// model is the order resource's model.
type model struct {
	ID        types.String `tfsdk:"id"`
	ProjectID types.String `tfsdk:"project_id"`
	ConfigIDs types.List   `tfsdk:"config_ids"`
	Unlisted  types.String `tfsdk:"unlisted_configs"`
	// UnlistedIDs are the active configs config_ids does not list, in the
	// service's sequence.
	UnlistedIDs types.List     `tfsdk:"unlisted_config_ids"`
	Orders      types.Map      `tfsdk:"orders"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

// identityModel is the order resource's identity (Terraform 1.12+).
type identityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
}

// identitySchema is the order resource's identity: its project, as
// there is one order per collection and project.
func identitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       `Project whose configs are ordered: a project id or "@current". Defaults to the provider's project_id on import.`,
			},
		},
	}
}

// resourceSchema is the schema of the order resource of kind k.
func resourceSchema(ctx context.Context, k kind.Kind) schema.Schema {
	record := k.ConfigTypeName()
	return schema.Schema{
		Version: 1,
		MarkdownDescription: fmt.Sprintf("Sets the order in which a project's %[1]ss run: `config_ids` lists "+
			"configs, first runs first.\n\n"+
			"**List the configs you manage; the others are left to `unlisted_configs`.** A config you do not "+
			"list, such as one added in the PostHog UI, never shows as a change of `config_ids`. By default "+
			"(`unlisted_configs = \"last\"`) it runs after the listed configs: when it is not there yet, the "+
			"next plan shows its new place in `orders` and apply moves it, once. With "+
			"`unlisted_configs = \"keep\"` it stays where it is and the plan stays empty. "+
			"`unlisted_config_ids` shows which configs are not listed.\n\n"+
			"**Leave `order` unset on `%[2]s` resources** (and in configuration `terraform query` writes, "+
			"which leaves it out): a config that sets `order` itself and this resource would move it back "+
			"and forth.",
			k.Noun, record),
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
				MarkdownDescription: fmt.Sprintf("Ids of the project's %ss in the order they run: the first "+
					"gets the lowest `order`. Each config once; disabled configs too, to keep their place. "+
					"Configs left out are placed as `unlisted_configs` says.", k.Noun),
				Validators: []validator.List{
					listvalidator.UniqueValues(),
					listvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
				},
			},
			"unlisted_configs": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(unlistedLast),
				MarkdownDescription: fmt.Sprintf("What happens to the %ss that `config_ids` leaves out: `last` "+
					"(the default) runs them after the listed ones, in the order they have among themselves, "+
					"moving those that are not there yet; `keep` leaves them where they are and orders the "+
					"listed configs among themselves, in the places they already hold.", k.Noun),
				Validators: []validator.String{stringvalidator.OneOf(unlistedLast, unlistedKeep)},
			},
			"unlisted_config_ids": schema.ListAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: fmt.Sprintf("The project's %ss that `config_ids` leaves out, in the order "+
					"they run: configs added outside Terraform show up here, not as a change.", k.Noun),
			},
			"orders": schema.MapAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: "The `order` of each config of `config_ids` and `unlisted_config_ids`, by " +
					"config id. When the listed configs are out of sequence, apply numbers them 1, 2, 3, ... " +
					"(with `unlisted_configs = \"keep\"`: in the places they hold) and writes only the orders " +
					"that differ.",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true}),
		},
	}
}
