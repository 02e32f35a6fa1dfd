import { describe, expect, it } from "vitest";
import { routes } from "@/routes/table";
import { routeVisits } from "../e2e/route-list";

// The phone and axe browser specs visit every screen: their list must follow the route table.
describe("the browser specs' route list", () => {
  it("has one visit for every route of the table, and none for a route the table lacks", () => {
    const table = routes.map((route) => route.path).sort();
    const visited = routeVisits.map((visit) => visit.route).sort();
    expect(visited).toEqual(table);
  });
});
