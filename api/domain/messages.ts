/** Messages the API and the web app both show: one text each. */
export const UNEXPECTED = "Ocorreu um erro inexperado, tente novamente mais tarde.";
