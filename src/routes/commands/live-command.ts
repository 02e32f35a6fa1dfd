import type { LiveCommand } from "@/islands/command-live.island";
import type { Command } from "@/server/data/commands";

/** What the live timeline island gets of a command (JSON only). */
export function liveCommand(command: Command): LiveCommand {
  return {
    id: command.id,
    type: command.type,
    state: command.state,
    createdAt: command.createdAt,
    sentAt: command.sentAt,
    deliveredAt: command.deliveredAt,
    endedAt: command.endedAt,
    expiresAt: command.expiresAt,
    result: command.result,
    code: command.code,
    detail: command.detail,
  };
}
