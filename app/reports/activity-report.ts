import { ACTIVITY_TEXTS, type ActivityFilter } from "../../api/domain/activities";

/**
 * What the two activity reports' pages and loaders share (browser-safe; spec 001 §2.12, docs/activity-reports.md):
 * one implementation, two mounts that differ only in the heading, the default activity filter, the photo column of
 * the list, the dialog's title and the Excel file's name.
 */
export const ACTIVITY_MOUNTS = {
  "/historico-tarefas": {
    title: ACTIVITY_TEXTS.activitiesTitle,
    defaultFilter: "todos",
    photos: false,
    detailTitle: ACTIVITY_TEXTS.activitiesDetailTitle,
    fileName: "relatorio-atividades",
  },
  "/imagens-tarefas": {
    title: ACTIVITY_TEXTS.imagesTitle,
    defaultFilter: "imagens",
    photos: true,
    detailTitle: ACTIVITY_TEXTS.imagesDetailTitle,
    fileName: "relatorio-imagens",
  },
} as const satisfies Record<
  string,
  { title: string; defaultFilter: ActivityFilter; photos: boolean; detailTitle: string; fileName: string }
>;
export type ActivityPath = keyof typeof ACTIVITY_MOUNTS;

/** The list's default order: by day and time (the bookings' index order). */
export const ACTIVITIES_DEFAULT_SORT = "data";
