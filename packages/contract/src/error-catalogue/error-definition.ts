/** One entry of the error catalogue: HTTP status, English message, whether the web app shows the server's. */
export interface ErrorDefinition {
  status: number;
  message: string;
  showServerMessage: boolean;
}
