package migration

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// model is the migration resource's model.
type model struct {
	args
	ID            types.String         `tfsdk:"id"`
	HogFunctionID types.String         `tfsdk:"hog_function_id"`
	HogFunction   jsontypes.Normalized `tfsdk:"hog_function"`
}

// Descriptions shared by the resource and the action.
const (
	projectIDDescription = "Project of the config: a project id or `@current`. Defaults to the provider's `project_id`."
	keyNote              = "The service may refuse keys with scopes for its `migrate` action, as it does for its " +
		"other custom actions; the error then says to use a legacy personal API key without scopes."
)

func configIDDescription(k kind.Kind) string {
	return fmt.Sprintf("Identifier of the %s to turn into a hog function.", k.Noun)
}

// resourceSchema is the schema of the migration resource of kind k.
func resourceSchema(k kind.Kind) schema.Schema {
	return schema.Schema{
		MarkdownDescription: fmt.Sprintf("Turns an existing %[1]s into a hog function once, when it is created "+
			"(the `migrate` action of the API collection `%[2]s`, which services offer since July 2025). The "+
			"service makes the hog function and disables the config; it does not delete it.\n\n"+
			"Reading it calls nothing: a migration is a past event, and the hog function is managed elsewhere "+
			"(the official PostHog provider's `posthog_hog_function`). Destroying it only removes it from the "+
			"state, with a warning: a migration cannot be undone, and the hog function and the disabled config "+
			"stay on the service. Every migration makes a hog function, so a replacement (a changed `config_id`, "+
			"another project, or `-replace`) migrates again and makes another; a migrate request that may have "+
			"reached the service is never sent again.\n\n"+
			"Works with Terraform 1.11+ and OpenTofu. On Terraform 1.14+ the action `%[3]s_%[4]s_migrate` makes "+
			"the same call without keeping anything in state. See the guide \"Moving to hog functions\". %[5]s",
			k.Noun, k.Collection, framework.ProviderTypeName, k.Name, keyNote),
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Identifier of this migration: `<project_id>/<config_id>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"project_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: projectIDDescription + " Changing it to another project migrates the config of " +
					"that project; the same project written the other way (`@current` for its id, or back) changes nothing.",
				Validators:    []validator.String{framework.ProjectIDValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"config_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: configIDDescription(k) + " Changing it migrates that config.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"hog_function_id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Identifier of the hog function the service made: the id to import it into the " +
					"official PostHog provider with (`posthog_hog_function`).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"hog_function": schema.StringAttribute{
				CustomType: jsontypes.NormalizedType{},
				Computed:   true,
				MarkdownDescription: "The hog function as the service answered the migration, a JSON object " +
					"string (read it with `jsondecode`); the service masks secret inputs.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// actionSchema is the schema of the migrate action of kind k.
func actionSchema(k kind.Kind) actionschema.Schema {
	return actionschema.Schema{
		MarkdownDescription: fmt.Sprintf("Turns an existing %[1]s into a hog function each time the action is "+
			"invoked (the `migrate` action of the API collection `%[2]s`, which services offer since July 2025): "+
			"`terraform apply -invoke=action.%[3]s_%[4]s_migrate.NAME`. The service makes a hog function and "+
			"disables the config; it does not delete it. Every invocation makes another hog function, so invoke "+
			"it once per config; the resource `%[3]s_%[4]s_migration` does it once and keeps the hog function's "+
			"id in state. Needs Terraform 1.14 or later. %[5]s",
			k.Noun, k.Collection, framework.ProviderTypeName, k.Name, keyNote),
		Attributes: map[string]actionschema.Attribute{
			"project_id": actionschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: projectIDDescription,
				Validators:          []validator.String{framework.ProjectIDValidator()},
			},
			"config_id": actionschema.Int64Attribute{
				Required:            true,
				MarkdownDescription: configIDDescription(k),
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
		},
	}
}
