# Step 3: manage the hog functions with the official PostHog provider. Its
# posthog_hog_function imports take "<project_id>/<id>" from v1.0.2 on (the
# id alone, with the provider's project_id, in every version); the ids are
# step 1's hog_function_ids.
terraform {
  required_providers {
    posthog = {
      source  = "PostHog/posthog"
      version = ">= 1.0.2"
    }
  }
}

provider "posthog" {
  # host, api_key and project_id from POSTHOG_HOST, POSTHOG_API_KEY and
  # POSTHOG_PROJECT_ID, as for this provider.
}

import {
  to = posthog_hog_function.geoip
  id = "12345/0197a3d2-5f1e-7c3b-9a41-2b8e6f0d4c11"
}

import {
  to = posthog_hog_function.s3
  id = "12345/0197a3d2-6a40-7e15-8c2d-9f3b1e7a5d20"
}
