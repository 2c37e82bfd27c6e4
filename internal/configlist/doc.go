// Package configlist is the list resource pipeline_KIND_config for
// `terraform query` (Terraform 1.14+): every record of the collection that
// is not soft-deleted, each with the config resource's identity and, when
// asked, its full resource object (configresource.Model) with order left
// null, so that -generate-config-out writes import blocks and configuration
// for them that leaves the order to the service or an order resource.
package configlist
