package configresource

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// GeneratedConfig returns cfg, the configuration the framework generated
// from the state of a resource of type typeName (GenerateResourceConfig:
// `terraform plan -generate-config-out`, Terraform 1.14+), with order left
// out of a config's, as the list resource's objects leave it: the imported
// configs keep the order the service holds, and an order resource beside
// them never fights it. The framework (v1.19) writes every argument the
// state holds and has no hook, so package main rewrites its answer.
func GeneratedConfig(ctx context.Context, typeName string, cfg *tfprotov6.DynamicValue) (*tfprotov6.DynamicValue, error) {
	typ, ok := configType(ctx, typeName)
	if !ok || cfg == nil {
		return cfg, nil
	}
	v, err := cfg.Unmarshal(typ)
	if err != nil {
		return cfg, fmt.Errorf("reading the generated configuration of %s: %w", typeName, err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil || attrs == nil {
		return cfg, err
	}
	attrs["order"] = tftypes.NewValue(attrs["order"].Type(), nil)
	out, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		return cfg, fmt.Errorf("writing the generated configuration of %s: %w", typeName, err)
	}
	return &out, nil
}

// configType is the value type of the config resource named typeName, if
// typeName names one.
func configType(ctx context.Context, typeName string) (tftypes.Type, bool) {
	for _, k := range framework.Kinds() {
		if k.ConfigTypeName() == typeName {
			var resp resource.SchemaResponse
			New(k)().Schema(ctx, resource.SchemaRequest{}, &resp)
			return resp.Schema.Type().TerraformType(ctx), true
		}
	}
	return nil, false
}
