/** How `bg_result` hands back an answer: in the tool result, or as a reference to its verified artifact file. */
export type ResultDelivery = "inline" | "artifact";
