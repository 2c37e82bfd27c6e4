package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
)

// The framework (v1.19) serves GenerateResourceConfig but does not yet
// advertise it, so Terraform writes the configuration of an imported
// resource (terraform plan -generate-config-out) from its state itself,
// every argument included: a config's order too. The server advertises it
// (Terraform 1.14+ asks then) and serves the framework's configuration
// without what a config leaves to the service (configresource.GeneratedConfig).

// GetProviderSchema advertises GenerateResourceConfig besides the framework's capabilities.
func (s *releasingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if resp != nil {
		resp.ServerCapabilities = generatesConfig(resp.ServerCapabilities)
	}
	return resp, err
}

// GetMetadata advertises GenerateResourceConfig besides the framework's capabilities.
func (s *releasingServer) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp, err := s.ProviderServer.GetMetadata(ctx, req)
	if resp != nil {
		resp.ServerCapabilities = generatesConfig(resp.ServerCapabilities)
	}
	return resp, err
}

func generatesConfig(c *tfprotov6.ServerCapabilities) *tfprotov6.ServerCapabilities {
	out := tfprotov6.ServerCapabilities{}
	if c != nil {
		out = *c
	}
	out.GenerateResourceConfig = true
	return &out
}

// GenerateResourceConfig serves the framework's generated configuration,
// released like the other requests, with configresource.GeneratedConfig's
// changes.
func (s *releasingServer) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	resp, err := released(ctx, req, s.ProviderServer.GenerateResourceConfig)
	if err != nil || resp == nil {
		return resp, err
	}
	if resp.Config, err = configresource.GeneratedConfig(ctx, req.TypeName, resp.Config); err != nil {
		resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityError,
			Summary:  "Could not generate the configuration of " + req.TypeName,
			Detail:   err.Error() + "\n\nThis is a bug in the provider: please report it.",
		})
	}
	return resp, nil
}
