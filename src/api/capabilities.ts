/**
 * Capabilities, their key prefixes (spec "Authentication" 3) and the endpoints each may call.
 * The route table is the allowlist the proxy forwards and the sandbox serves.
 */
export type Capability = 'video' | 'headshot' | 'generate' | 'imageTools';

export const CAPABILITIES: readonly Capability[] = ['video', 'headshot', 'generate', 'imageTools'];

export const KEY_PREFIXES: Record<Capability, string> = {
  video: 'v3_live_',
  headshot: 'hs_live_',
  generate: 'g3_live_',
  imageTools: 'ut_live_',
};

export interface RouteSpec {
  /** Stable name used by the client, the proxy's allowlist and the sandbox's router. */
  name: RouteName;
  method: 'GET' | 'POST';
  /** Path pattern; `{job_id}` is one segment. */
  pattern: string;
  /** The capability whose key the call needs; `null` for downloads authorized by the signed job id; `'any'` for the account. */
  capability: Capability | 'any' | null;
  /** Query parameters the endpoint reads; anything else is dropped by the proxy. */
  query: readonly string[];
  /** True for endpoints that charge credits (and are rate limited). */
  charged: boolean;
}

export type RouteName =
  | 'createVideoJob'
  | 'getVideoJob'
  | 'downloadVideoJob'
  | 'createModelJob'
  | 'getModelJob'
  | 'downloadModel'
  | 'downloadTurntable'
  | 'downloadReference'
  | 'headshots'
  | 'imageTool'
  | 'account';

export const ROUTES: readonly RouteSpec[] = [
  {
    name: 'createVideoJob',
    method: 'POST',
    pattern: '/api/v1/video-to-3d/jobs',
    capability: 'video',
    query: [],
    charged: true,
  },
  {
    name: 'getVideoJob',
    method: 'GET',
    pattern: '/api/v1/video-to-3d/jobs/{job_id}',
    capability: 'video',
    query: [],
    charged: false,
  },
  {
    name: 'downloadVideoJob',
    method: 'GET',
    pattern: '/api/app/jobs/{job_id}/download',
    capability: null,
    query: ['extract', 'expires', 'sig'],
    charged: false,
  },
  {
    name: 'createModelJob',
    method: 'POST',
    pattern: '/api/v1/3d/jobs',
    capability: 'generate',
    query: [],
    charged: true,
  },
  {
    name: 'getModelJob',
    method: 'GET',
    pattern: '/api/v1/3d/jobs/{job_id}',
    capability: 'generate',
    query: [],
    charged: false,
  },
  {
    name: 'downloadModel',
    method: 'GET',
    pattern: '/api/demo/3d/jobs/{job_id}/model',
    capability: null,
    query: ['download', 'expires', 'sig'],
    charged: false,
  },
  // Not in the spec ("turntable_url: URL of an MP4 turntable", "reference_image_url"): the sandbox
  // serves both beside the model, authorized like it by a signed link that expires (expires, sig).
  {
    name: 'downloadTurntable',
    method: 'GET',
    pattern: '/api/demo/3d/jobs/{job_id}/turntable',
    capability: null,
    query: ['expires', 'sig'],
    charged: false,
  },
  {
    name: 'downloadReference',
    method: 'GET',
    pattern: '/api/demo/3d/jobs/{job_id}/reference',
    capability: null,
    query: ['expires', 'sig'],
    charged: false,
  },
  { name: 'headshots', method: 'POST', pattern: '/api/v1/headshot', capability: 'headshot', query: [], charged: true },
  { name: 'imageTool', method: 'POST', pattern: '/api/v1', capability: 'imageTools', query: [], charged: true },
  { name: 'account', method: 'GET', pattern: '/api/v1/account', capability: 'any', query: [], charged: false },
];

export interface RouteMatch {
  route: RouteSpec;
  jobId: string | undefined;
}

/** Upstream job ids: one URL-safe segment. */
export const JOB_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Matches a path (no query) to a route, ignoring the method. Only exact segment matches; the
 * `{job_id}` segment must match `idPattern` (the proxy passes the pattern of its job handles).
 */
export function matchRoute(pathname: string, idPattern: RegExp = JOB_ID_PATTERN): RouteMatch[] {
  const out: RouteMatch[] = [];
  const parts = pathname.split('/');
  for (const route of ROUTES) {
    const pat = route.pattern.split('/');
    if (pat.length !== parts.length) continue;
    let jobId: string | undefined;
    let ok = true;
    for (let i = 0; i < pat.length; i++) {
      if (pat[i] === '{job_id}') {
        if (!idPattern.test(parts[i]!)) ok = false;
        else jobId = parts[i];
      } else if (pat[i] !== parts[i]) ok = false;
      if (!ok) break;
    }
    if (ok) out.push({ route, jobId });
  }
  return out;
}
