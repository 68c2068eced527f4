import type enUSBilling from './en-US.billing';

/** French texts of the user's Billing screen: typed against English, so a missing or extra key fails the build. */
const frFRBilling: typeof enUSBilling = {
  myBilling: {
    title: 'Facturation',
    description: 'Votre formule, ce que chaque mois vous a coûté et vos factures, en USDT.',
    plan: {
      title: 'Votre formule',
      none: 'Aucune formule',
      noneHint: 'Rien n’est facturé.',
      hint: 'Du profit au-dessus de votre plus haut historique, chaque mois',
      inactive: 'En pause : les mois sont enregistrés sans frais',
    },
    current: {
      title: '{{period}} jusqu’ici',
      feeSoFar: 'Frais jusqu’ici',
    },
    highWaterMark: {
      title: 'Plus haut historique',
      hint: 'Aucuns frais tant que votre profit total ne le dépasse pas',
    },
    due: {
      title: 'À payer',
      hint_one: '{{count}} facture à payer',
      hint_other: '{{count}} factures à payer',
    },
    how: {
      title: 'Comment les frais sont calculés',
      text: 'À la fin de chaque mois, votre profit réalisé s’ajoute à votre total cumulé. Les frais sont la part prévue par votre formule de ce qui dépasse le plus haut niveau atteint jusque-là (le plus haut historique) : une perte est donc rattrapée avant que quoi que ce soit ne soit de nouveau facturé. Un mois sans profit au-dessus de ce niveau ne coûte rien.',
    },
    months: {
      title: 'Mois facturés',
      period: 'Mois',
      profit: 'Profit',
      highWaterMark: 'Plus haut historique',
      feeable: 'Au-dessus',
      fee: 'Frais',
      status: 'Statut',
      empty: 'Aucun mois facturé pour l’instant',
      emptyHint: 'Chaque mois apparaît ici une fois terminé et traité.',
    },
    monthStatus: {
      no_fee: 'Sans frais',
      waived: 'Offert',
      pending: 'À facturer',
      invoiced: 'Facturé',
      paid: 'Payé',
    },
    invoices: {
      title: 'Factures',
      number: 'Numéro',
      period: 'Mois',
      amount: 'Montant',
      status: 'Statut',
      issuedAt: 'Émise le',
      dueDate: 'Échéance',
      paidAt: 'Payée le',
      empty: 'Aucune facture',
      emptyHint: 'Une facture est émise pour un mois avec des frais.',
    },
    invoiceStatus: {
      draft: 'Brouillon',
      open: 'À payer',
      paid: 'Payée',
      void: 'Annulée',
    },
  },
};

export default frFRBilling;
