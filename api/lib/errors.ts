/** An expected failure with the Portuguese text the user sees; app.ts turns it into JSON. */
export class ApiError extends Error {
  constructor(
    public status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429,
    message: string,
    public fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const notFound = (message = "Registro não encontrado") => new ApiError(404, message);
