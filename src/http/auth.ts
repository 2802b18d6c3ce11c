/**
 * What the transport needs from authentication, and nothing more: the transport depends on this
 * interface, and the strategies in `auth/` implement it (never the other way round).
 */
export interface TransportAuth {
  /** True for elevated (API-key) clients, which may call the operations the schema marks elevated. */
  readonly elevated: boolean;
  /**
   * Headers that authenticate one request (`Authorization: <token>`, site/account ids). May renew
   * tokens first. Called before every attempt, so a retry carries fresh credentials.
   */
  getAuthHeaders(): Promise<Record<string, string>>;
  /**
   * The headers `getAuthHeaders` would give, when they are at hand without any wait (an API key;
   * an access token that needs no renewal), else undefined. Optional: the transport then skips a
   * wait per call.
   */
  readyAuthHeaders?(): Record<string, string> | undefined;
  /**
   * Called once when a call is answered 401. Resolve true when credentials were renewed and one
   * replay of the call may succeed.
   */
  onUnauthorized?(): Promise<boolean>;
}
