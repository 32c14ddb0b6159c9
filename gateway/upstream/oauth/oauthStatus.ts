/**
 * OAuth state of a server, apart from its connection state (seed §5.5). `refused`: the server
 * still answers 403 `insufficient_scope` after a login that consented to the scope it named, so
 * asking for that consent again would loop; the admin is told to look at the account's grants.
 */
export type OAuthState = 'required' | 'authorizing' | 'authorized' | 'expired' | 'refused';

export interface OAuthStatus {
  state: OAuthState;
  /** What the admin should do next, never a token or a provider's raw error text. */
  message: string;
  /** A scope the server asked for that the current login lacks (after `insufficient_scope`). */
  requiredScope?: string;
  /** While authorized: when the current access token expires (ISO); a renewed token moves it, so a refresh is an event. */
  expiresAt?: string;
}
