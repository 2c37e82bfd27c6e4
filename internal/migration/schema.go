package migration

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/job"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// model is the migration resource's model.
type model struct {
	job.Target
	ID            types.String         `tfsdk:"id"`
	HogFunctionID types.String         `tfsdk:"hog_function_id"`
	HogFunction   jsontypes.Normalized `tfsdk:"hog_function"`
}

func configIDDescription(k kind.Kind) string {
	return fmt.Sprintf("Identifier of the %s to turn into a hog function.", k.Noun)
}

// resourceSchema is the schema of the migration resource of kind k.
func resourceSchema(k kind.Kind) schema.Schema {
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Turns an existing %s into a hog function once, when created; the "+
			"config is disabled, not deleted. Today's PostHog lets no API key do this: see the guide \"Moving to "+
			"hog functions\".", k.Noun),
		Attributes: job.WithTarget(configIDDescription(k)+" Changing it migrates that config too.", map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of this migration: `<project_id>/<config_id>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"hog_function_id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Identifier of the hog function PostHog made, to import it as a " +
					"`posthog_hog_function` of the official PostHog provider.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"hog_function": schema.StringAttribute{
				CustomType: jsontypes.NormalizedType{},
				Computed:   true,
				MarkdownDescription: "The hog function as PostHog made it, a JSON object (read it with " +
					"`jsondecode`); secret inputs are masked.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}),
	}
}

// actionSchema is the schema of the migrate action of kind k.
func actionSchema(k kind.Kind) actionschema.Schema {
	return actionschema.Schema{
		MarkdownDescription: fmt.Sprintf("Turns an existing %s into a hog function each time the action is "+
			"invoked (Terraform 1.14+). Today's PostHog lets no API key do this: see the guide \"Moving to hog "+
			"functions\".", k.Noun),
		Attributes: job.WithActionTarget(configIDDescription(k), map[string]actionschema.Attribute{}),
	}
}
