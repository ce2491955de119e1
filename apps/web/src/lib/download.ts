/**
 * Saves the file an API call answers (a CSV export, an example file): a plain link cannot
 * send the bearer token, so the call is made with it and its answer handed to the browser.
 */
export async function saveDownload(answer: Promise<Response>, fallbackName: string): Promise<void> {
  const response = await answer;
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
