/** Texts of the Subscriptions and Topics screens. */
import { defineMessages } from '../../../lib/i18n.ts';

export const messages = defineMessages({
  'subscription.clientid': { zh: '客户端 ID', en: 'Client ID' },
  'subscription.topic': { zh: '主题', en: 'Topic' },
  'subscription.matchTopic': { zh: '匹配主题', en: 'Matching topic' },
  'subscription.qos': { zh: 'QoS', en: 'QoS' },
  'subscription.allQos': { zh: '全部 QoS', en: 'All QoS' },
  'subscription.node': { zh: '节点', en: 'Node' },
  'subscription.allNodes': { zh: '全部节点', en: 'All nodes' },
  'subscription.nl': { zh: 'No Local', en: 'No Local' },
  'subscription.rap': { zh: 'Retain as Published', en: 'Retain as Published' },
  'subscription.rh': { zh: 'Retain Handling', en: 'Retain Handling' },
  'subscription.shareGroup': { zh: '共享订阅组', en: 'Share name' },
  'subscription.empty': { zh: '暂无订阅', en: 'No subscriptions' },
  'subscription.exactTopic': { zh: '主题（精确匹配）', en: 'Topic (exact)' },
  'subscription.noTopics': { zh: '暂无主题', en: 'No topics' },
});
