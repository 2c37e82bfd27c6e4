package order

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// model is the order resource's model.
type model struct {
	ID        types.String   `tfsdk:"id"`
	ProjectID types.String   `tfsdk:"project_id"`
	ConfigIDs types.List     `tfsdk:"config_ids"`
	Orders    types.Map      `tfsdk:"orders"`
	Timeouts  timeouts.Value `tfsdk:"timeouts"`
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
		MarkdownDescription: fmt.Sprintf("Owns the order of all %[1]ss of a project (API collection `%[2]s`): "+
			"one ordered list of config ids, first = lowest `order`.\n\n"+
			"Apply sends one `rearrange` request when the API key may call it (a legacy personal API key "+
			"without scopes). The service answers 403 to every key with scopes; the resource then falls back "+
			"to updating `order` on just the configs whose order differs. Disabled configs, which `rearrange` "+
			"skips, are updated the same way, so they end in the right place too. Nothing is written when "+
			"the service already holds the sequence.\n\n"+
			"Every config of the collection that is not soft-deleted belongs in `config_ids`: configs added, "+
			"removed or re-ordered outside Terraform show as a change of `config_ids` at the next plan, and "+
			"apply restores the configured sequence (configs missing from the list are placed after the "+
			"listed ones, with a warning).\n\n"+
			"**With `%[3]s`:** leave `order` unset on configs this resource orders. A config that leaves "+
			"`order` unset keeps whatever order the service holds, so the two never fight; a config that "+
			"sets `order` itself would be changed back and forth by both resources.\n\n"+
			"Destroying the resource changes nothing on the service: the configs keep their orders.",
			k.Noun, k.Collection, record),
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
				MarkdownDescription: fmt.Sprintf("Ids of the project's %ss in the wanted sequence: the first "+
					"gets the lowest `order`. Each config once; every config of the collection that is not "+
					"soft-deleted belongs here, disabled ones included.", k.Noun),
				Validators: []validator.List{
					listvalidator.UniqueValues(),
					listvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
				},
			},
			"orders": schema.MapAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: "The `order` the service holds for each config of `config_ids`, by config " +
					"id. When the sequence has to change, apply numbers the configs 1, 2, 3, ... in sequence " +
					"(writing only the orders that differ).",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true}),
		},
	}
}
