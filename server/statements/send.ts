/**
 * The statement of trips sent as a file (docs/statements.md): the workbook or the PDF with the carrier's
 * requisites. Staff's call (/counterparties/{id}/statement) and the customer's link (/c/{token}/statement) send it
 * the same way; each finds the customer its own way first.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/connect.ts';
import { PARTY_COLUMNS, type Invoice, type Statement } from '../../contract/statements.ts';
import { contentDisposition, filePeriod, XLSX } from '../exports/workbook.ts';
import { sendPdf } from '../papers/render.ts';
import { renderAct, renderInvoice, renderStatementPdf } from './papers.ts';
import { writeStatementWorkbook } from './workbook.ts';
import type { CustomerRow } from './statement.ts';

export async function sendStatement(db: Db, reply: FastifyReply, customer: CustomerRow, statement: Statement, format: 'xlsx' | 'pdf'): Promise<void> {
  const name = `Реестр рейсов — ${customer.name}, ${filePeriod(statement.from, statement.to)}`;
  if (format === 'pdf') {
    const seller = await db.kysely.selectFrom('companies').select(PARTY_COLUMNS).where('id', '=', customer.company_id).executeTakeFirstOrThrow();
    await sendPdf(reply, `${name}.pdf`, await renderStatementPdf(statement, seller));
    return;
  }
  const stream = new PassThrough();
  void writeStatementWorkbook(stream, statement).catch((error: unknown) => stream.destroy(error as Error));
  await reply.type(XLSX).header('content-disposition', contentDisposition(`${name}.xlsx`)).send(stream);
}

/** The act or the invoice of an issued act, as the PDF download named by its number, date and customer. */
export async function sendInvoicePaper(reply: FastifyReply, invoice: Invoice, paper: 'act' | 'invoice'): Promise<void> {
  const title = `${paper === 'act' ? 'Акт' : 'Счёт'} № ${invoice.number} от ${invoice.issued_on.split('-').reverse().join('.')} — ${invoice.counterparty_name}.pdf`;
  await sendPdf(reply, title, await (paper === 'act' ? renderAct(invoice) : renderInvoice(invoice)));
}
