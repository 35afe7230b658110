import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
} from "chart.js";

/** The chart.js pieces the audit charts use (doughnut and bars): the only ones registered, server and browser alike. */
export const CHART_PARTS = [
  ArcElement,
  BarElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
  DoughnutController,
  BarController,
];
